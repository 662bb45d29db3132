@testable import ControllerFirmware
import Testing

/// Epatches built from the format's description: the patch btrtl picks for a ROM version, the version it
/// writes over the patch's tail, and a one-line error naming the file for every malformed one.
@Suite("Realtek epatch")
struct RealtekEpatchTests {
    typealias S = SyntheticFirmware

    static let patchA = S.body(40, seed: 1)
    static let patchB = S.body(300, seed: 9)
    static let file = S.v1(version: 0x0A0B_0C0D, projectID: 14, patches: [(1, patchA), (2, patchB)])

    @Test("v1: the patch of chip ID ROM version + 1, its last 4 octets the firmware version (little-endian)")
    func selectsByROMVersion() throws {
        let epatch = try RealtekEpatch(bytes: Self.file, file: "fw.bin")
        #expect(epatch.format == .v1)
        #expect(epatch.project == RealtekProject.withID(14))
        #expect(epatch.project.chip == "RTL8761B" && epatch.project.lmpSubversion == 0x8761)
        #expect(epatch.firmwareVersion == 0x0A0B_0C0D)
        #expect(epatch.romVersions() == [0, 1])
        #expect(try epatch.patch(romVersion: 0) == Array(Self.patchA.dropLast(4)) + [0x0D, 0x0C, 0x0B, 0x0A])
        #expect(try epatch.patch(romVersion: 1) == Array(Self.patchB.dropLast(4)) + [0x0D, 0x0C, 0x0B, 0x0A])
    }

    @Test("v1: the first of two patches for one chip ID is the one, as btrtl and Bumble take it")
    func firstMatchingPatch() throws {
        let epatch = try RealtekEpatch(bytes: S.v1(patches: [(2, Self.patchA), (2, Self.patchB)]), file: "fw.bin")
        #expect(try epatch.patch(romVersion: 1).count == Self.patchA.count)
    }

    @Test("A ROM version the file has no patch for names the file, the chip and the ROM versions it has")
    func missingROMVersion() throws {
        let epatch = try RealtekEpatch(bytes: Self.file, file: "rtl8761bu_fw.bin")
        #expect(throws: FirmwareError(file: "rtl8761bu_fw.bin", problem: "no patch for ROM version 5 (RTL8761B, project ID 14); "
                                      + "the file has patches for ROM versions 0, 1")) {
            try epatch.patch(romVersion: 5)
        }
    }

    @Test("The project ID is found behind other extension instructions, skipped as btrtl skips them")
    func projectIDBehindOtherInstructions() throws {
        // btrtl reads an instruction's opcode, length and one data octet from the end, then `length` octets more.
        let other: [UInt8] = [0xAA, 0xBB, 0xCC, 2, 0x05]
        let bytes = S.v1(patches: [(1, Self.patchA)], tail: [9, 1, 0] + other + RealtekEpatch.extensionSignature)
        #expect(try RealtekEpatch(bytes: bytes, file: "fw.bin").project.id == 9)
    }

    @Test("Malformed files: one line naming the file and what was expected")
    func malformed() throws {
        let cases: [([UInt8], String)] = [
            ([], "not a Realtek epatch: expected the signature"),
            (Array("Realtekk".utf8) + Array(Self.file.dropFirst(8)), "not a Realtek epatch: expected the signature \"Realtech\" or \"RTBTCore\""),
            (Array(Self.file.prefix(20)), "truncated epatch: 20 octets, a v1 epatch has at least 21"),
            (Array(Self.file.dropLast()), "expected the extension signature 0x51 0x04 0xfd 0x77 in the last 4 octets"),
            (S.v1(patches: [(1, Self.patchA)], tail: [0, 0, 5] + RealtekEpatch.extensionSignature), "an extension instruction of length 0"),
            (S.v1(patches: [(1, Self.patchA)], tail: [0, 0, 0xFF] + RealtekEpatch.extensionSignature), "no project ID"),
            (S.v1(projectID: 99, patches: [(1, Self.patchA)]), "unknown project ID 99"),
        ]
        for (bytes, expected) in cases {
            let error = #expect(throws: FirmwareError.self) { try RealtekEpatch(bytes: bytes, file: "x_fw.bin") }
            #expect(error?.file == "x_fw.bin")
            #expect(error?.problem.hasPrefix(expected) == true, "\(error.map { "\($0)" } ?? "no error") for \(expected)")
        }
    }

    @Test("Tables or a patch past the end of the file, or a patch shorter than its version, are refused")
    func lengthsPastTheEnd() throws {
        // A patch count whose tables do not fit.
        var tooMany = Self.file
        tooMany[12] = 0xFF
        #expect(throws: FirmwareError.self) { try RealtekEpatch(bytes: tooMany, file: "fw.bin") }
        // A patch length past the end: offset + length beyond the file.
        var long = Self.file
        long[14 + 4 + 2] = 0xFF; long[14 + 4 + 3] = 0xFF
        let epatch = try RealtekEpatch(bytes: long, file: "fw.bin")
        let error = #expect(throws: FirmwareError.self) { try epatch.patch(romVersion: 1) }
        #expect(error?.problem.contains("runs past the end of the file") == true)
        // A patch of 3 octets cannot hold its version.
        let short = try RealtekEpatch(bytes: S.v1(patches: [(1, [1, 2, 3])]), file: "fw.bin")
        #expect(throws: FirmwareError.self) { try short.patch(romVersion: 0) }
    }

    @Test("Every truncation of a good file is an error naming it, never a trap")
    func everyTruncation() {
        for length in 0..<Self.file.count {
            let bytes = Array(Self.file.prefix(length))
            #expect(throws: FirmwareError.self) {
                let epatch = try RealtekEpatch(bytes: bytes, file: "fw.bin")
                for rom in epatch.romVersions() { _ = try epatch.patch(romVersion: rom) }
            }
        }
    }

    @Test("v2: the subsections of ECO ROM version + 1 by priority; security headers only for the controller's key")
    func v2Selection() throws {
        typealias Sub = SyntheticFirmware.Subsection
        let bytes = S.v2(projectID: 25, sections: [
            (1, [Sub(eco: 2, priority: 5, data: [0x51]), Sub(eco: 1, priority: 1, data: [0x11]), Sub(eco: 2, priority: 1, data: [0x52])]),
            (2, [Sub(eco: 2, priority: 3, data: [0x53, 0x54]), Sub(eco: 2, priority: 5, data: [0x55])]),
            (3, [Sub(eco: 2, priority: 0, keyID: 7, data: [0x5E])]),
            (9, [Sub(eco: 2, priority: 0, data: [0x99])]),
        ])
        let epatch = try RealtekEpatch(bytes: bytes, file: "rtl8852cu_fw_v2.bin")
        #expect(epatch.format == .v2)
        #expect(epatch.project.chip == "RTL8852C")
        #expect(epatch.romVersions() == [0, 1])
        #expect(try epatch.patch(romVersion: 0) == [0x11])
        // Priority 1, then 3, then the two of priority 5 — the later first, as btrtl inserts them.
        #expect(try epatch.patch(romVersion: 1) == [0x52, 0x53, 0x54, 0x55, 0x51])
        #expect(try epatch.patch(romVersion: 1, keyID: 7) == [0x5E, 0x52, 0x53, 0x54, 0x55, 0x51])
        #expect(try epatch.patch(romVersion: 1, keyID: 8) == [0x52, 0x53, 0x54, 0x55, 0x51])
        #expect(throws: FirmwareError.self) { try epatch.patch(romVersion: 2) }
    }

    @Test("v2: a section or subsection past the end is refused, and so is every truncation")
    func v2Malformed() throws {
        typealias Sub = SyntheticFirmware.Subsection
        let good = S.v2(sections: [(1, [Sub(eco: 1, priority: 0, data: [1, 2, 3, 4])])])
        _ = try RealtekEpatch(bytes: good, file: "fw.bin")
        var sectionTooLong = good
        sectionTooLong[20 + 4] = 0x70
        #expect(throws: FirmwareError.self) { try RealtekEpatch(bytes: sectionTooLong, file: "fw.bin") }
        var subsectionTooLong = good
        subsectionTooLong[20 + 8 + 4 + 4] = 0x30
        #expect(throws: FirmwareError.self) { try RealtekEpatch(bytes: subsectionTooLong, file: "fw.bin") }
        var tooManySections = good
        tooManySections[16] = 9
        #expect(throws: FirmwareError.self) { try RealtekEpatch(bytes: tooManySections, file: "fw.bin") }
        for length in 0..<good.count {
            #expect(throws: FirmwareError.self) {
                let epatch = try RealtekEpatch(bytes: Array(good.prefix(length)), file: "fw.bin")
                _ = try epatch.patch(romVersion: 0)
            }
        }
    }

    @Test("RealtekFirmware: a file for another LMP subversion is refused; 0x1200 takes the RTL8723A's plain image")
    func lmpSubversion() throws {
        let error = #expect(throws: FirmwareError.self) { try RealtekFirmware(bytes: Self.file, file: "fw.bin", lmpSubversion: 0x8822) }
        #expect(error?.problem == "firmware for RTL8761B (project ID 14, LMP subversion 0x8761), not for a controller of LMP subversion 0x8822")
        let matching = try RealtekFirmware(bytes: Self.file, file: "fw.bin", lmpSubversion: 0x8761)
        #expect(matching.romVersions == [0, 1])
        let plain = try RealtekFirmware(bytes: [1, 2, 3, 4, 5, 6, 7, 8, 9], file: "rtl8723a_fw.bin", lmpSubversion: 0x1200)
        #expect(try plain.patch(romVersion: 0) == [1, 2, 3, 4, 5, 6, 7, 8, 9])
        #expect(plain.romVersions.isEmpty)
        #expect(throws: FirmwareError.self) { try RealtekFirmware(bytes: Self.file, file: "fw.bin", lmpSubversion: 0x1200) }
        #expect(throws: FirmwareError.self) { try RealtekFirmware(bytes: [1, 2, 3], file: "fw.bin", lmpSubversion: 0x1200) }
    }
}
