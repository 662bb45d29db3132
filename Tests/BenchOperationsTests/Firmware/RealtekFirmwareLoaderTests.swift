@testable import BenchOperations
import ControllerFirmware
import Foundation
@testable import HCIPackets
@testable import HostCore
import Synchronization
import Testing
import TestSupport

/// The firmware stage of a Realtek `usb:` controller against a scripted RTL8761BU in ROM state: what is
/// downloaded is byte for byte what ControllerFirmware cuts from Debian's rtl8761bu_fw.bin and
/// rtl8761bu_config.bin, numbered as btrtl numbers it; a missing or unusable file is a named error before any
/// download; a controller that stops answering fails at the command deadline; a patched one is left alone.
@Suite struct RealtekFirmwareLoaderTests {
    /// Debian's firmware-realtek as scripts/install-deps --firmware unpacks it (HIL_FIRMWARE_DIR names another).
    static let debian = ProcessInfo.processInfo.environment["HIL_FIRMWARE_DIR"]
        ?? repositoryRoot.appendingPathComponent(".build/firmware/lib/firmware").path
    static var hasDebianFiles: Bool { FileManager.default.fileExists(atPath: debian + "/rtl_bt/rtl8761bu_fw.bin") }

    @Test("Debian's rtl8761bu_fw.bin + rtl8761bu_config.bin go down byte for byte in btrtl's fragments",
          .enabled(if: hasDebianFiles, "no rtl_bt/ under the firmware directory: scripts/install-deps --firmware fetches Debian's firmware-realtek"))
    func downloadsDebianFirmware() async throws {
        try await withSteppedTime { time in
            let dongle = try ScriptedRealtekController(romVersion: 1)
            let host = try dongle.controller.makeHost(clock: time.clock)
            let loader = RealtekFirmwareLoader(files: FirmwareFiles(directories: [Self.debian]))
            let state = try await loader.load(on: host)

            let firmware = try RealtekFirmware(bytes: try Self.bytes("rtl8761bu_fw.bin"), file: "rtl8761bu_fw.bin", lmpSubversion: 0x8761)
            let config = try RealtekConfig(bytes: try Self.bytes("rtl8761bu_config.bin"), file: "rtl8761bu_config.bin")
            let expected = RealtekDownload(patch: try firmware.patch(romVersion: 1), config: config)
            let sent = dongle.downloads
            #expect(sent.map(\.index) == expected.fragments.map(\.index))
            #expect(sent.map(\.data) == expected.fragments.map { Array(expected.payload[$0.range]) })
            #expect(sent.flatMap(\.data) == expected.payload)
            // btrtl's numbering: 0, 1, … in order (111 fragments stay below 0x7F), bit 7 on the last alone.
            #expect(sent.dropLast().map(\.index) == (0..<UInt8(sent.count - 1)).map { $0 })
            #expect(sent.last?.index == UInt8(sent.count - 1) | 0x80)
            #expect(sent.count == 111 && sent.allSatisfy { $0.data.count <= 252 })

            let opcodes = dongle.controller.commands.map(\.opcode)
            #expect(opcodes == [.reset, .readLocalVersionInformation, ScriptedRealtekController.readROMVersion]
                    + Array(repeating: ScriptedRealtekController.download, count: sent.count) + [.reset, .readLocalVersionInformation])
            #expect(state == .downloaded(chip: "rtl8761bu", file: "rtl_bt/rtl8761bu_fw.bin", config: "rtl_bt/rtl8761bu_config.bin", romVersion: 1,
                                         fragments: 111, octets: expected.payload.count, version: ScriptedRealtekController.debianVersion))
            await host.close()
        }
    }

    @Test("Past 127 fragments the index goes on at 1, as btrtl's counter does, and only the last has bit 7")
    func indicesPastTheFirst128Fragments() async throws {
        let directory = try TemporaryDirectory.make("rtk-long")
        defer { TemporaryDirectory.remove(directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("rtl_bt"), withIntermediateDirectories: true)
        // A version 1 epatch (project ID 14, RTL8761B) of one 40,000-octet patch for ROM version 1 (chip ID 2).
        let length = 40_000
        let version = ScriptedRealtekController.debianVersion
        let littleEndian: (UInt32, Int) -> [UInt8] = { value, count in (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let body = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let epatch = RealtekEpatch.signatureV1 + littleEndian(version, 4) + littleEndian(1, 2) + littleEndian(2, 2) + littleEndian(UInt32(length), 2)
            + littleEndian(22, 4) + body + [14, 0x01, 0x00] + RealtekEpatch.extensionSignature
        try Data(epatch).write(to: directory.appendingPathComponent("rtl_bt/rtl8761bu_fw.bin"))
        try await withSteppedTime { time in
            let dongle = try ScriptedRealtekController()
            let host = try dongle.controller.makeHost(clock: time.clock)
            _ = try await RealtekFirmwareLoader(files: FirmwareFiles(directories: [directory.path])).load(on: host)
            let sent = dongle.downloads
            // btrtl: `dl_cmd->index = j++; if (dl_cmd->index == 0x7f) j = 1;`, bit 7 on the last.
            var expected: [UInt8] = []
            var next: UInt8 = 0
            for _ in 0..<(length / 252 + 1) {
                expected.append(next)
                next = next == 0x7F ? 1 : next + 1
            }
            expected[expected.count - 1] |= 0x80
            #expect(sent.map(\.index) == expected)
            #expect(sent.count == 159 && sent[127].index == 0x7F && sent[128].index == 0x01 && sent[158].index == 0x80 | 31)
            #expect(sent.flatMap(\.data) == Array(body.dropLast(4)) + littleEndian(version, 4))
            await host.close()
        }
    }

    @Test func aMissingFileIsNamedWithItsPackageAndNothingIsDownloaded() async throws {
        let empty = try TemporaryDirectory.make("rtk-missing")
        defer { TemporaryDirectory.remove(empty) }
        try await withSteppedTime { time in
            let dongle = try ScriptedRealtekController()
            let host = try dongle.controller.makeHost(clock: time.clock)
            let loader = RealtekFirmwareLoader(files: FirmwareFiles(directories: [empty.path]))
            await #expect { try await loader.load(on: host) } throws: { error in
                guard let error = error as? FirmwareLoadError, case .missingFile(let name, let searched, _, let chip) = error else { return false }
                return name == "rtl_bt/rtl8761bu_fw.bin" && searched == empty.path && chip == "rtl8761bu"
                    && error.description.contains("firmware-realtek") && error.description.contains("non-free-firmware")
            }
            #expect(dongle.downloads.isEmpty)
            await host.close()
        }
    }

    @Test func aTruncatedFileIsNamedWithItsPackage() async throws {
        try await Self.refusing(RealtekEpatch.signatureV1 + [0x6B, 0x8A, 0xA9]) { problem, error in
            problem.file.hasSuffix("rtl_bt/rtl8761bu_fw.bin") && problem.problem.contains("truncated") && error.description.contains("firmware-realtek")
        }
    }

    @Test func aFileForAnotherChipIsRefused() async throws {
        // A version 1 epatch of no patches whose project ID is 8 (RTL8822B, LMP subversion 0x8822).
        try await Self.refusing(RealtekEpatch.signatureV1 + [0, 0, 0, 0, 0, 0] + [0x08, 0x01, 0x00] + RealtekEpatch.extensionSignature) { problem, _ in
            problem.problem.contains("RTL8822B") && problem.problem.contains("0x8761")
        }
    }

    /// Loads with `firmware` as the only rtl_bt/rtl8761bu_fw.bin and expects an `.unusableFile` error that
    /// `matches`, with nothing downloaded.
    static func refusing(_ firmware: [UInt8], matches: @escaping (FirmwareError, FirmwareLoadError) -> Bool) async throws {
        let directory = try TemporaryDirectory.make("rtk-unusable")
        defer { TemporaryDirectory.remove(directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("rtl_bt"), withIntermediateDirectories: true)
        try Data(firmware).write(to: directory.appendingPathComponent("rtl_bt/rtl8761bu_fw.bin"))
        try await withSteppedTime { time in
            let dongle = try ScriptedRealtekController()
            let host = try dongle.controller.makeHost(clock: time.clock)
            let loader = RealtekFirmwareLoader(files: FirmwareFiles(directories: [directory.path]))
            await #expect { try await loader.load(on: host) } throws: { error in
                guard let error = error as? FirmwareLoadError, case .unusableFile(let problem, _, _) = error else { return false }
                return matches(problem, error)
            }
            #expect(dongle.downloads.isEmpty)
            await host.close()
        }
    }

    @Test("A controller that stops answering mid-download fails at the command deadline, naming the fragment",
          .enabled(if: hasDebianFiles, "no rtl_bt/ under the firmware directory: scripts/install-deps --firmware fetches Debian's firmware-realtek"))
    func silentControllerFailsAtTheDeadline() async throws {
        try await withSteppedTime { time in
            let dongle = try ScriptedRealtekController(silentAfter: 5)
            let host = try dongle.controller.makeHost(clock: time.clock)
            let loader = RealtekFirmwareLoader(files: FirmwareFiles(directories: [Self.debian]), commandTimeout: .seconds(2))
            let start = time.now
            let loading = Task { try await loader.load(on: host) }
            // The sixth Download reached the controller, which does not answer it: its deadline is 2 s after it was sent.
            #expect(await dongle.controller.command { $0.opcode == ScriptedRealtekController.download && $0.parameters.first == 5 } != nil)
            #expect(await time.nextDeadline() == start + .seconds(2))
            await time.advance(to: start + .seconds(2) - .nanoseconds(1))
            #expect(await host.sentCommands.map(\.packet.opcode) == [ScriptedRealtekController.download], "failed before its deadline")
            await time.advance(by: .nanoseconds(1))
            await #expect { try await loading.value } throws: { error in
                guard let error = error as? FirmwareLoadError, case .controller(let step, let cause) = error,
                      case .commandTimeout(let opcode, let timeout, true) = cause else { return false }
                return step.contains("Download (0xFC20) fragment 6 of 111 (index 0x05)") && opcode == ScriptedRealtekController.download
                    && timeout == .seconds(2)
            }
            #expect(dongle.downloads.count == 6)
            await host.close()
        }
    }

    @Test func anAlreadyPatchedControllerIsNotDownloadedTo() async throws {
        let empty = try TemporaryDirectory.make("rtk-patched")
        defer { TemporaryDirectory.remove(empty) }
        try await withSteppedTime { time in
            let dongle = try ScriptedRealtekController(startsPatched: true)
            let host = try dongle.controller.makeHost(clock: time.clock)
            // No files at all: a patched controller needs none.
            let state = try await RealtekFirmwareLoader(files: FirmwareFiles(directories: [empty.path])).load(on: host)
            #expect(state == .alreadyPatched(version: ScriptedRealtekController.debianVersion))
            #expect(dongle.controller.commands.map(\.opcode) == [.reset, .readLocalVersionInformation])
            await host.close()
        }
    }

    @Test("A controller still on its ROM after the download is refused",
          .enabled(if: hasDebianFiles, "no rtl_bt/ under the firmware directory: scripts/install-deps --firmware fetches Debian's firmware-realtek"))
    func aControllerNotPatchedAfterTheDownloadIsAnError() async throws {
        try await withSteppedTime { time in
            // It reports another version than the file's once "patched".
            let dongle = try ScriptedRealtekController(patchedVersion: 0x0001_0002)
            let host = try dongle.controller.makeHost(clock: time.clock)
            await #expect { try await RealtekFirmwareLoader(files: FirmwareFiles(directories: [Self.debian])).load(on: host) } throws: { error in
                guard let error = error as? FirmwareLoadError, case .notPatched(_, let file, let expected, let found) = error else { return false }
                return file == "rtl_bt/rtl8761bu_fw.bin" && expected.contains("0x09A98A6B") && found.contains("0x00010002")
            }
            await host.close()
        }
    }

    @Test func theFirmwareDirectoryOrder() {
        #expect(FirmwareFiles.standard(environment: ["HIL_FIRMWARE_DIR": "/x"]).directories == ["/x"])
        #expect(FirmwareFiles.standard(environment: [:]).directories == ["/lib/firmware", ".build/firmware/lib/firmware"])
    }

    @Test func realtekUSBIDsAsBtusbHasThem() {
        #expect(RealtekUSBIDs.contains(vendor: 0x0BDA, product: 0x8771))
        #expect(RealtekUSBIDs.contains(vendor: 0x2357, product: 0x0604))
        #expect(RealtekUSBIDs.contains(vendor: 0x0B05, product: 0x190E))
        #expect(!RealtekUSBIDs.contains(vendor: 0x0A12, product: 0x0001))
        #expect(!RealtekUSBIDs.contains(vendor: 0x8087, product: 0x0032))
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: debian + "/rtl_bt/" + name)))
    }
}
