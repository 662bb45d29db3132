/// A Realtek epatch (`rtl_bt/*_fw.bin`): the patches of one chip family for each of its ROM versions, read as
/// Linux's btrtl reads them (`rtlbt_parse_firmware`, `rtlbt_parse_firmware_v2`).
///
/// Both formats end in an extension section read backwards from the 4-octet signature 51 04 FD 77: instructions
/// of opcode, length and data (each read from its end), up to the one of opcode 0 and length 1 whose octet is
/// the project ID, or an opcode 0xFF that ends the section. Version 1 (signature "Realtech") is a header (the
/// 32-bit firmware version, the patch count N), then N chip IDs (16 bits), N patch lengths (16 bits) and N
/// patch offsets (32 bits); the patch for ROM version R is the one of chip ID R + 1, and its last 4 octets are
/// replaced by the firmware version. Version 2 (signature "RTBTCore") is a header (8 octets of version, the
/// section count), then sections (opcode, length) of subsections (ECO, priority, length): the patch for ROM
/// version R is every subsection of ECO R + 1 in the snippet (1) and dummy-header (2) sections (security
/// headers, 3, only for a controller with a key ID), ordered by priority.
package struct RealtekEpatch: Sendable {
    package enum Format: String, Sendable { case v1, v2 }

    /// One patch of a version 1 epatch, as its tables say.
    package struct Patch: Sendable, Equatable {
        package let chipID: UInt16
        package let length: UInt16
        package let offset: UInt32
    }

    /// One subsection of a version 2 epatch.
    package struct Subsection: Sendable, Equatable {
        package let sectionOpcode: UInt32
        package let eco: UInt8
        package let priority: UInt8
        /// The security header's key ID (the third octet of its header).
        package let keyID: UInt8
        package let data: Range<Int>
    }

    package static let signatureV1 = Array("Realtech".utf8)
    package static let signatureV2 = Array("RTBTCore".utf8)
    package static let extensionSignature: [UInt8] = [0x51, 0x04, 0xFD, 0x77]
    static let headerV1Length = 14
    static let headerV2Length = 20

    package let file: String
    package let format: Format
    package let project: RealtekProject
    /// Version 1: the 32-bit firmware version (written over each patch's last 4 octets); version 2: the first
    /// 4 of the header's 8 version octets, little-endian.
    package let firmwareVersion: UInt32
    package let patches: [Patch]
    package let subsections: [Subsection]
    let bytes: FirmwareBytes

    package init(bytes: [UInt8], file: String) throws(FirmwareError) {
        let reader = FirmwareBytes(bytes: bytes, file: file)
        self.file = file
        self.bytes = reader
        let signature = Array(bytes.prefix(8))
        let headerLength: Int
        if signature == Self.signatureV1 {
            format = .v1
            headerLength = Self.headerV1Length
        } else if signature == Self.signatureV2 {
            format = .v2
            headerLength = Self.headerV2Length
        } else {
            let found = signature.map { $0.hex(2) }.joined(separator: " ")
            throw reader.failure("not a Realtek epatch: expected the signature \"Realtech\" or \"RTBTCore\", found \(found.isEmpty ? "an empty file" : found) (an RTL8723A's plain image needs LMP subversion 0x1200)")
        }
        // The header, the extension signature and one instruction at least, as btrtl requires.
        let minimum = headerLength + Self.extensionSignature.count + 3
        guard bytes.count >= minimum else {
            throw reader.failure("truncated epatch: \(bytes.count) octets, a \(format.rawValue) epatch has at least \(minimum)")
        }
        guard Array(bytes.suffix(4)) == Self.extensionSignature else {
            let found = bytes.suffix(4).map { $0.hex(2) }.joined(separator: " ")
            throw reader.failure("expected the extension signature 0x51 0x04 0xfd 0x77 in the last 4 octets, found \(found) (truncated?)")
        }
        let id = try Self.projectID(reader)
        guard let project = RealtekProject.withID(id) else {
            throw reader.failure("unknown project ID \(id) in the extension section (known: \(RealtekProject.known.map { "\($0.id)" }.joined(separator: ", ")))")
        }
        self.project = project
        switch format {
        case .v1:
            firmwareVersion = try reader.u32(at: 8, "the firmware version")
            let count = Int(try reader.u16(at: 12, "the patch count"))
            guard bytes.count >= minimum + 8 * count else {
                throw reader.failure("truncated epatch: its \(count) patches' tables need \(minimum + 8 * count) octets, the file has \(bytes.count)")
            }
            var patches: [Patch] = []
            for index in 0..<count {
                let base = Self.headerV1Length
                patches.append(Patch(chipID: try reader.u16(at: base + 2 * index, "a chip ID"),
                                     length: try reader.u16(at: base + 2 * count + 2 * index, "a patch length"),
                                     offset: try reader.u32(at: base + 4 * count + 4 * index, "a patch offset")))
            }
            self.patches = patches
            subsections = []
        case .v2:
            firmwareVersion = try reader.u32(at: 8, "the firmware version")
            patches = []
            subsections = try Self.subsections(reader)
        }
    }

    /// The project ID, from the extension section read backwards as btrtl reads it: each instruction's opcode,
    /// length and first data octet from the end, then `length` octets more.
    static func projectID(_ reader: FirmwareBytes) throws(FirmwareError) -> UInt8 {
        var position = reader.bytes.count - extensionSignature.count
        while position >= headerV1Length + 3 {
            let opcode = reader.bytes[position - 1]
            let length = reader.bytes[position - 2]
            let data = reader.bytes[position - 3]
            position -= 3
            if opcode == 0xFF { break }
            guard length != 0 else {
                throw reader.failure("an extension instruction of length 0 (opcode \(opcode.hex(2))) at offset \(position)")
            }
            if opcode == 0 && length == 1 { return data }
            position -= Int(length)
        }
        throw reader.failure("no project ID (an instruction of opcode 0 and length 1) in the extension section")
    }

    /// A version 2 epatch's subsections; the file ends in the project ID instruction and the extension
    /// signature (7 octets) that no section may cover.
    static func subsections(_ reader: FirmwareBytes) throws(FirmwareError) -> [Subsection] {
        let end = reader.bytes.count - 7
        let sectionCount = try reader.u32(at: 16, "the section count")
        var position = headerV2Length
        var found: [Subsection] = []
        for index in 0..<Int(min(sectionCount, UInt32(Int32.max))) {
            guard position + 8 <= end else {
                throw reader.failure("section \(index + 1) of \(sectionCount) starts at offset \(position), past the sections' end (\(end))")
            }
            let opcode = try reader.u32(at: position, "a section opcode")
            let length = Int(try reader.u32(at: position + 4, "a section length"))
            let start = position + 8
            guard length <= end - start else {
                throw reader.failure("section \(index + 1) (opcode \(opcode)) is \(length) octets from offset \(start), past the sections' end (\(end))")
            }
            if [1, 2, 3].contains(opcode) {
                found += try subsections(reader, opcode: opcode, from: start, to: start + length)
            }
            position = start + length
        }
        return found
    }

    static func subsections(_ reader: FirmwareBytes, opcode: UInt32, from start: Int, to end: Int) throws(FirmwareError) -> [Subsection] {
        guard end - start >= 4 else { throw reader.failure("section of opcode \(opcode) at offset \(start) is too short for its header") }
        let count = Int(try reader.u16(at: start, "a subsection count"))
        var position = start + 4
        var found: [Subsection] = []
        for index in 0..<count {
            guard end - position >= 8 else {
                throw reader.failure("subsection \(index + 1) of \(count) (section opcode \(opcode)) at offset \(position) runs past its section's end (\(end))")
            }
            let length = Int(try reader.u32(at: position + 4, "a subsection length"))
            guard length <= end - position - 8 else {
                throw reader.failure("subsection \(index + 1) of \(count) (section opcode \(opcode)) is \(length) octets from offset \(position + 8), past its section's end (\(end))")
            }
            found.append(Subsection(sectionOpcode: opcode, eco: reader.bytes[position], priority: reader.bytes[position + 1],
                                    keyID: reader.bytes[position + 2], data: (position + 8)..<(position + 8 + length)))
            position += 8 + length
        }
        return found
    }

    /// The ROM versions the file has a patch for, ascending (a chip ID or ECO of 0 serves none).
    package func romVersions(keyID: UInt8 = 0) -> [UInt8] {
        let ids: [Int] = switch format {
        case .v1: patches.map { Int($0.chipID) }
        case .v2: subsections.filter { $0.sectionOpcode != 3 || (keyID != 0 && $0.keyID == keyID) }.map { Int($0.eco) }
        }
        return Set(ids.filter { (1...256).contains($0) }.map { UInt8($0 - 1) }).sorted()
    }

    /// The patch for a controller of ROM version `romVersion` (the vendor Read ROM Version's answer), as btrtl
    /// builds it: version 1, the first patch of chip ID R + 1 with its last 4 octets the firmware version;
    /// version 2, the subsections of ECO R + 1 by priority (a later one of equal priority first, as btrtl
    /// inserts them). `keyID` is the controller's security key ID (0: none; security headers are skipped).
    package func patch(romVersion: UInt8, keyID: UInt8 = 0) throws(FirmwareError) -> [UInt8] {
        let wanted = Int(romVersion) + 1
        let available = romVersions(keyID: keyID).map { "\($0)" }.joined(separator: ", ")
        let missing = bytes.failure("no patch for ROM version \(romVersion) (\(project.chip), project ID \(project.id)); "
                                    + "the file has patches for ROM versions \(available.isEmpty ? "none" : available)")
        switch format {
        case .v1:
            guard let entry = patches.first(where: { Int($0.chipID) == wanted }), entry.offset != 0 else { throw missing }
            let length = Int(entry.length), offset = Int(entry.offset)
            guard length >= 4 else {
                throw bytes.failure("the patch for ROM version \(romVersion) is \(length) octets, shorter than its 4-octet version")
            }
            let body = try bytes.slice(at: offset, count: length, "the patch for ROM version \(romVersion)")
            var patch = Array(body.dropLast(4))
            withUnsafeBytes(of: firmwareVersion.littleEndian) { patch.append(contentsOf: $0) }
            return patch
        case .v2:
            var chosen: [Subsection] = []
            for subsection in subsections where Int(subsection.eco) == wanted {
                if subsection.sectionOpcode == 3 && (keyID == 0 || subsection.keyID != keyID) { continue }
                let place = chosen.firstIndex { $0.priority >= subsection.priority } ?? chosen.endIndex
                chosen.insert(subsection, at: place)
            }
            guard !chosen.isEmpty else { throw missing }
            return chosen.flatMap { bytes.bytes[$0.data] }
        }
    }
}
