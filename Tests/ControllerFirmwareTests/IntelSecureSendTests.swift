@testable import ControllerFirmware
import Testing

/// .sfi and .ddc files built from the layout btintel reads (the RSA header of 644 octets, the ECDSA header of
/// 320, a command buffer of HCI commands): the Secure Send fragments of each part, the 4-octet chunks, the boot
/// address, and a named error for every truncated or foreign file.
@Suite("Intel .sfi and .ddc")
struct IntelSecureSendTests {
    /// A header of `length` octets starting with a CSS header of `version`, each other octet its offset's low
    /// bits (so a misplaced range shows). btintel looks for Write Boot Params walking the file as commands from
    /// its first octet, headers included; as in Intel's files, the header's octets read as command lengths
    /// (`walk`) step that walk onto the header's end.
    static func header(version: UInt32, length: Int, base: Int, walk: [Int]) -> [UInt8] {
        var bytes = (0..<length).map { UInt8(truncatingIfNeeded: base + $0) }
        bytes[0] = 0x06
        for index in 0..<4 { bytes[8 + index] = UInt8(truncatingIfNeeded: version >> (8 * index)) }
        var position = 0
        for step in walk {
            bytes[position + 2] = UInt8(step - 3)
            position += step
        }
        return bytes
    }

    static func command(_ opcode: UInt16, _ parameters: [UInt8]) -> [UInt8] {
        [UInt8(opcode & 0xFF), UInt8(opcode >> 8), UInt8(parameters.count)] + parameters
    }

    /// Commands laid out as Intel lays them out, each chunk a multiple of 4: a 252-octet write, a Write Boot
    /// Params (12), a 256-octet write (crosses a fragment), then two commands of 5 and 3 that end on a boundary together.
    static let buffer = command(0xFC8E, Array(repeating: 0xAB, count: 249)) + command(0xFC0E, [0x00, 0x08, 0x10, 0x00, 107, 51, 22, 0, 0])
        + command(0xFC8E, Array(repeating: 0xCD, count: 253)) + command(0xFC02, [1, 2]) + command(0xFC02, [])

    static func sfi(ecdsa: Bool, buffer: [UInt8] = buffer) -> [UInt8] {
        header(version: 0x0001_0000, length: 644, base: 0, walk: [256, 256, 132])
            + (ecdsa ? header(version: 0x0002_0000, length: 320, base: 644, walk: [256, 64]) : []) + buffer
    }

    @Test("RSA: CSS header, public key, signature from btintel's offsets, then 4-octet chunks in ≤252-octet fragments")
    func rsa() throws {
        let bytes = Self.sfi(ecdsa: false)
        let sfi = try IntelSFI(bytes: bytes, file: "ibt-17-16-1.sfi")
        #expect(!sfi.hasECDSAHeader)
        // A chunk ends where the running length is a multiple of 4, as btintel_download_firmware_payload cuts.
        #expect(sfi.chunks.map(\.count) == [252, 12, 256, 5 + 3])
        #expect(sfi.chunks.first?.lowerBound == 644 && sfi.chunks.last?.upperBound == bytes.count)
        let fragments = try sfi.fragments(engine: .rsa)
        #expect(fragments.map(\.type) == [.cssHeader, .publicKey, .publicKey, .signature, .signature, .data, .data, .data, .data, .data])
        #expect(fragments.map(\.range) == [0..<128, 128..<380, 380..<384, 388..<640, 640..<644,
                                           644..<896, 896..<908, 908..<1160, 1160..<1164, 1164..<1172])
        #expect(try sfi.sent(engine: .rsa).count == fragments.count + fragments.reduce(0) { $0 + $1.range.count })
        #expect(sfi.bootParams?.address == 0x0010_0800 && sfi.bootParams?.build == IntelFirmwareBuild(number: 107, week: 51, year: 22))
        #expect(throws: FirmwareError.self) { try sfi.fragments(engine: .ecdsa) }
    }

    @Test("A header that walks past the command buffer's start hides Write Boot Params from btintel: boot address 0")
    func bootParamsAsBtintelWalks() throws {
        // A header of zeros but its CSS type and version: the walk steps 3 at a time, past 644 to 645, then
        // reads the first write's parameters as commands and jumps over the Write Boot Params at 896.
        var bytes = [UInt8](repeating: 0, count: 644) + Self.buffer
        bytes[0] = 0x06
        bytes[10] = 0x01
        let sfi = try IntelSFI(bytes: bytes, file: "a.sfi")
        #expect(IntelSFI.bootParams(Array(bytes[644...]))?.address == 0x0010_0800)
        #expect(sfi.bootParams == nil)
    }

    @Test("ECDSA layout: the command buffer after 964 octets; the ECDSA header's parts for engine 0x01")
    func ecdsa() throws {
        let sfi = try IntelSFI(bytes: Self.sfi(ecdsa: true), file: "ibt-0041-0041.sfi")
        #expect(sfi.hasECDSAHeader && sfi.chunks.first?.lowerBound == 964)
        let fragments = try sfi.fragments(engine: .ecdsa)
        #expect(Array(fragments.prefix(3)) == [.init(type: .cssHeader, range: 644..<772), .init(type: .publicKey, range: 772..<868),
                                               .init(type: .signature, range: 868..<964)])
        #expect(try sfi.fragments(engine: .rsa).prefix(5).map(\.range) == [0..<128, 128..<380, 380..<384, 388..<640, 640..<644])
        #expect(fragments.dropFirst(3).allSatisfy { $0.type == .data && $0.range.lowerBound >= 964 })
    }

    @Test("Truncated, foreign or misaligned files: one named error each")
    func errors() throws {
        #expect(throws: FirmwareError(file: "a.sfi", problem: "truncated .sfi: 10 octets, shorter than its 644-octet RSA header")) {
            try IntelSFI(bytes: Array(repeating: 0, count: 10), file: "a.sfi")
        }
        #expect(throws: FirmwareError(file: "a.sfi", problem: "not an Intel .sfi: expected a CSS header (type 0x06, version 0x00010000), found type 0x52 version 0x00000000")) {
            try IntelSFI(bytes: Array("Realtech".utf8) + Array(repeating: 0, count: 700), file: "a.sfi")
        }
        let cut = Self.sfi(ecdsa: false).dropLast(20)
        #expect(throws: FirmwareError(file: "a.sfi", problem: "truncated .sfi: the command 0xfc8e at offset 908 has 253 parameter octets, the file ends 241 after its header")) {
            try IntelSFI(bytes: Array(cut), file: "a.sfi")
        }
        #expect(throws: FirmwareError(file: "a.sfi", problem: "the command buffer ends 7 octets past its last 4-octet boundary (offset 1164): truncated?")) {
            try IntelSFI(bytes: Self.sfi(ecdsa: false, buffer: Array(Self.buffer.dropLast(5 + 3)) + Self.command(0xFC02, [0, 0, 0, 0])), file: "a.sfi")
        }
        #expect(throws: FirmwareError(file: "a.sfi", problem: "no command buffer after the 644-octet headers")) {
            try IntelSFI(bytes: Self.sfi(ecdsa: false, buffer: []), file: "a.sfi")
        }
    }

    @Test("A .ddc: each record, length octet included, is one Write DDC; a cut record is named")
    func ddc() throws {
        let ddc = try IntelDDC(bytes: [0x04, 0x0A, 0x01, 0x11, 0x22, 0x03, 0x2B, 0x01, 0x00], file: "a.ddc")
        #expect(ddc.commands == [[0x04, 0x0A, 0x01, 0x11, 0x22], [0x03, 0x2B, 0x01, 0x00]])
        #expect(throws: FirmwareError(file: "a.ddc", problem: "truncated .ddc: the record at offset 5 is 4 octets, the file ends 3 after its start")) {
            try IntelDDC(bytes: [0x04, 0x0A, 0x01, 0x11, 0x22, 0x03, 0x2B, 0x01], file: "a.ddc")
        }
        #expect(try IntelDDC(bytes: [], file: "a.ddc").records.isEmpty)
    }
}
