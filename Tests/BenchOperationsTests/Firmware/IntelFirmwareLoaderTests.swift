@testable import BenchOperations
import ControllerFirmware
import Foundation
@testable import HCIPackets
@testable import HostCore
import Testing
import TestSupport

/// The firmware stage of an Intel `usb:` controller against a scripted AX210 bootloader: what goes down is
/// byte for byte the Secure Send fragments ControllerFirmware cuts from Debian's ibt-0041-0041.sfi (which
/// agree with Bumble's driver, FirmwareInspectIntelBumbleTests), then Intel Reset with the file's boot
/// address and the .ddc's records; the two vendor events are awaited exactly 5 s, as btintel awaits them; a
/// missing or unusable file is a named error before any download; an operational controller is left alone.
@Suite struct IntelFirmwareLoaderTests {
    static let debian = RealtekFirmwareLoaderTests.debian
    static var hasDebianFiles: Bool { FileManager.default.fileExists(atPath: debian + "/intel/ibt-0041-0041.sfi") }
    static let missing: Comment = "no intel/ under the firmware directory: scripts/install-deps --firmware fetches Debian's firmware-iwlwifi"

    static func sfi() throws -> IntelSFI {
        try IntelSFI(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: debian + "/intel/ibt-0041-0041.sfi"))), file: "ibt-0041-0041.sfi")
    }

    @Test("Debian's ibt-0041-0041.sfi and .ddc go down as btintel sends them, for either secure boot engine",
          .enabled(if: hasDebianFiles, missing), arguments: [UInt8(0), 1])
    func downloadsDebianFirmware(sbeType: UInt8) async throws {
        let sfi = try Self.sfi()
        let expected = try sfi.fragments(engine: sbeType == 0 ? .rsa : .ecdsa)
        try await withSteppedTime { time in
            let dongle = try ScriptedIntelController(sbeType: sbeType, fragmentsBeforeLoaded: expected.count)
            let host = try dongle.controller.makeHost(clock: time.clock)
            let state = try await IntelFirmwareLoader(files: FirmwareFiles(directories: [Self.debian])).load(on: host)

            #expect(dongle.secureSends == expected.map { [$0.type.rawValue] + sfi.bytes[$0.range] })
            #expect(dongle.secureSends.allSatisfy { $0.count <= 253 })
            let ddc = try IntelDDC(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.debian + "/intel/ibt-0041-0041.ddc"))), file: "ddc")
            let commands = dongle.controller.commands
            #expect(commands.map(\.opcode) == [ScriptedIntelController.readVersion]
                    + Array(repeating: ScriptedIntelController.secureSend, count: expected.count)
                    + [ScriptedIntelController.intelReset, ScriptedIntelController.readVersion]
                    + Array(repeating: ScriptedIntelController.writeDDC, count: ddc.records.count))
            #expect(commands.first?.parameters == [0xFF])
            // btintel's intel_reset: soft reset, patches on, no DDC reload, boot at the file's Write Boot Params address.
            #expect(commands.first { $0.opcode == ScriptedIntelController.intelReset }?.parameters == [0x00, 0x01, 0x00, 0x01, 0x00, 0x08, 0x10, 0x00])
            #expect(commands.filter { $0.opcode == ScriptedIntelController.writeDDC }.map(\.parameters) == ddc.commands.map { Array($0) })
            #expect(state == .intelLoaded(generation: "TyP", file: "intel/ibt-0041-0041.sfi", ddc: "intel/ibt-0041-0041.ddc", fragments: expected.count,
                                          octets: try sfi.sent(engine: sbeType == 0 ? .rsa : .ecdsa).count, bootAddress: 0x0010_0800))
            await host.close()
        }
    }

    /// The legacy generations the issue names and a file Debian ships for each: 9260/9560 (JfP, ThP), AX201
    /// (HrP), AX200 (CcP).
    static let legacyGenerations: [(variant: UInt8, hwRevision: UInt8, fwRevision: UInt8, file: String)] = [
        (0x11, 16, 1, "ibt-17-16-1"), (0x12, 16, 1, "ibt-18-16-1"), (0x13, 0, 4, "ibt-19-0-4"), (0x14, 1, 3, "ibt-20-1-3"),
    ]

    @Test("JfP, ThP, HrP, CcP: the legacy Read Version names ibt-<variant>-<hw rev>-<fw rev>; RSA headers, then the buffer from 644",
          .enabled(if: hasDebianFiles, missing), arguments: legacyGenerations.indices)
    func loadsLegacyGenerations(index: Int) async throws {
        let generation = Self.legacyGenerations[index]
        let path = Self.debian + "/intel/\(generation.file).sfi"
        let sfi = try IntelSFI(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), file: path)
        let expected = try sfi.fragments(engine: .rsa)
        #expect(!sfi.hasECDSAHeader && sfi.chunks.first?.lowerBound == 644)
        try await withSteppedTime { time in
            let legacy = IntelLegacyVersion(hwVariant: generation.variant, hwRevision: generation.hwRevision, fwVariant: 0x06, fwRevision: generation.fwRevision)
            let dongle = try ScriptedIntelController(legacy: legacy, fragmentsBeforeLoaded: expected.count)
            let host = try dongle.controller.makeHost(clock: time.clock)
            let state = try await IntelFirmwareLoader(files: FirmwareFiles(directories: [Self.debian])).load(on: host)
            #expect(dongle.secureSends == expected.map { [$0.type.rawValue] + sfi.bytes[$0.range] })
            let commands = dongle.controller.commands
            // btintel_setup_combined: asked for the TLV form, the bootloader answers the legacy one.
            #expect(commands.first?.parameters == [0xFF] && commands.dropFirst().first?.opcode == ScriptedIntelController.secureSend)
            let address = try #require(sfi.bootParams?.address)
            #expect(commands.first { $0.opcode == ScriptedIntelController.intelReset }?.parameters
                    == [0x00, 0x01, 0x00, 0x01] + (0..<4).map { UInt8(truncatingIfNeeded: address >> (8 * $0)) })
            guard case .intelLoaded(let name, let file, let ddc, let fragments, _, let booted) = state else { Issue.record("\(state)"); return }
            #expect(name == IntelGeneration.name(hardwareVariant: generation.variant) && file == "intel/\(generation.file).sfi")
            #expect(ddc == "intel/\(generation.file).ddc" && fragments == expected.count && booted == address)
            await host.close()
        }
    }

    @Test("SfP (0x0B): the legacy form names no file, Intel Read Boot Params' device revision does: ibt-11-5",
          .enabled(if: hasDebianFiles, missing))
    func sfpNamesItsFileByDeviceRevision() async throws {
        let path = Self.debian + "/intel/ibt-11-5.sfi"
        let sfi = try IntelSFI(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), file: path)
        let expected = try sfi.fragments(engine: .rsa)
        try await withSteppedTime { time in
            let legacy = IntelLegacyVersion(hwVariant: 0x0B, hwRevision: 0, fwVariant: 0x06, fwRevision: 0)
            let dongle = try ScriptedIntelController(legacy: legacy, fragmentsBeforeLoaded: expected.count)
            let host = try dongle.controller.makeHost(clock: time.clock)
            let state = try await IntelFirmwareLoader(files: FirmwareFiles(directories: [Self.debian])).load(on: host)
            #expect(dongle.controller.commands.prefix(2).map(\.opcode) == [ScriptedIntelController.readVersion, ScriptedIntelController.readBootParams])
            #expect(dongle.secureSends.count == expected.count)
            guard case .intelLoaded(let name, let file, let ddc, _, _, _) = state else { Issue.record("\(state)"); return }
            #expect(name == "SfP" && file == "intel/ibt-11-5.sfi" && ddc == "intel/ibt-11-5.ddc")
            await host.close()
        }
    }

    @Test("A bootloader that never says 'firmware loading complete' fails exactly 5 s after the last fragment",
          .enabled(if: hasDebianFiles, missing))
    func silentAfterDownload() async throws {
        let count = try Self.sfi().fragments(engine: .rsa).count
        try await Self.timesOut(ScriptedIntelController(fragmentsBeforeLoaded: count, silentAfterDownload: true),
                                after: ScriptedIntelController.secureSend, count: count, awaited: "0xFF 0x06 (firmware loading complete)")
    }

    @Test("Firmware that never sends its bootup event fails exactly 5 s after Intel Reset", .enabled(if: hasDebianFiles, missing))
    func silentAfterReset() async throws {
        let count = try Self.sfi().fragments(engine: .rsa).count
        try await Self.timesOut(ScriptedIntelController(fragmentsBeforeLoaded: count, silentAfterReset: true),
                                after: ScriptedIntelController.intelReset, count: 1, awaited: "0xFF 0x02 (bootup)")
    }

    /// Loads on `dongle`; once the `count`-th `opcode` command reached it, the next deadline is 5 s on; the
    /// stage fails then, not a nanosecond before, naming `awaited`.
    static func timesOut(_ dongle: ScriptedIntelController, after opcode: HCIOpcode, count: Int, awaited: String) async throws {
        try await withSteppedTime { time in
            let host = try dongle.controller.makeHost(clock: time.clock)
            let loader = IntelFirmwareLoader(files: FirmwareFiles(directories: [Self.debian]))
            let loading = Task { try await loader.load(on: host) }
            _ = await dongle.controller.packets { ScriptedController.commands($0).filter { $0.opcode == opcode }.count == count }
            // The command's own Command Complete is on its way (the controller answers at once): then only the event's deadline is left.
            while await !host.sentCommands.isEmpty { await Task.yield() }
            let start = time.now
            #expect(await time.nextDeadline() == start + .seconds(5))
            await time.advance(to: start + .seconds(5) - .nanoseconds(1))
            #expect(await time.nextDeadline() == start + .seconds(5), "failed before its deadline")
            await time.advance(by: .nanoseconds(1))
            await #expect { try await loading.value } throws: { error in
                guard let error = error as? FirmwareLoadError, case .controller(let step, let cause) = error,
                      case .eventTimeout(_, let timeout, _) = cause else { return false }
                return step.contains(awaited) && timeout == .seconds(5) && error.description.contains(awaited)
            }
            await host.close()
        }
    }

    @Test func aMissingFileIsNamedWithItsPackageAndNothingIsSent() async throws {
        let empty = try TemporaryDirectory.make("intel-missing")
        defer { TemporaryDirectory.remove(empty) }
        try await withSteppedTime { time in
            let dongle = try ScriptedIntelController()
            let host = try dongle.controller.makeHost(clock: time.clock)
            await #expect { try await IntelFirmwareLoader(files: FirmwareFiles(directories: [empty.path])).load(on: host) } throws: { error in
                guard let error = error as? FirmwareLoadError, case .missingFile(let name, let searched, _, let chip) = error else { return false }
                return name == "intel/ibt-0041-0041.sfi" && searched == empty.path && chip == "Intel TyP bootloader"
                    && error.description.contains("firmware-iwlwifi") && error.description.contains("non-free-firmware")
            }
            #expect(dongle.secureSends.isEmpty)
            await host.close()
        }
    }

    @Test("A truncated .sfi, or a legacy one for this TyP, is refused before any Secure Send", .enabled(if: hasDebianFiles, missing))
    func unusableFiles() async throws {
        let real = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.debian + "/intel/ibt-0041-0041.sfi")))
        let legacy = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.debian + "/intel/ibt-17-16-1.sfi")))
        for (bytes, problem) in [(Array(real.dropLast(1000)), "truncated"), (legacy, "no ECDSA header")] {
            let directory = try TemporaryDirectory.make("intel-unusable")
            defer { TemporaryDirectory.remove(directory) }
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("intel"), withIntermediateDirectories: true)
            try Data(bytes).write(to: directory.appendingPathComponent("intel/ibt-0041-0041.sfi"))
            try await withSteppedTime { time in
                let dongle = try ScriptedIntelController()
                let host = try dongle.controller.makeHost(clock: time.clock)
                await #expect { try await IntelFirmwareLoader(files: FirmwareFiles(directories: [directory.path])).load(on: host) } throws: { error in
                    guard let error = error as? FirmwareLoadError, case .unusableFile(let cause, _, _) = error else { return false }
                    return cause.file.hasSuffix("intel/ibt-0041-0041.sfi") && cause.problem.contains(problem) && error.description.contains("firmware-iwlwifi")
                }
                #expect(dongle.secureSends.isEmpty)
                await host.close()
            }
        }
    }

    @Test("A bootloader reporting the file's build (107-51.22) is booted without a download, as btintel does",
          .enabled(if: hasDebianFiles, missing))
    func aBootloaderHoldingTheFileIsOnlyBooted() async throws {
        try await withSteppedTime { time in
            let dongle = try ScriptedIntelController(minimumFirmware: IntelFirmwareBuild(number: 107, week: 51, year: 22))
            let host = try dongle.controller.makeHost(clock: time.clock)
            let state = try await IntelFirmwareLoader(files: FirmwareFiles(directories: [Self.debian])).load(on: host)
            #expect(dongle.secureSends.isEmpty)
            #expect(dongle.controller.commands.prefix(3).map(\.opcode) == [ScriptedIntelController.readVersion, ScriptedIntelController.intelReset,
                                                                            ScriptedIntelController.readVersion])
            #expect(state == .intelLoaded(generation: "TyP", file: "intel/ibt-0041-0041.sfi", ddc: "intel/ibt-0041-0041.ddc", fragments: 0,
                                          octets: 0, bootAddress: 0x0010_0800))
            await host.close()
        }
    }

    @Test("A JfP running operational firmware answers the TLV form; the legacy form read after it says operational")
    func anOperationalLegacyControllerIsLeftAlone() async throws {
        let empty = try TemporaryDirectory.make("intel-operational-legacy")
        defer { TemporaryDirectory.remove(empty) }
        try await withSteppedTime { time in
            let legacy = IntelLegacyVersion(hwVariant: 0x11, hwRevision: 16, fwVariant: 0x23, fwRevision: 1)
            let dongle = try ScriptedIntelController(legacy: legacy, startsOperational: true)
            let host = try dongle.controller.makeHost(clock: time.clock)
            let state = try await IntelFirmwareLoader(files: FirmwareFiles(directories: [empty.path])).load(on: host)
            #expect(state == .intelOperational(generation: "JfP"))
            #expect(dongle.controller.commands.map(\.parameters) == [[0xFF], []])
            await host.close()
        }
    }

    @Test("A TLV controller of a variant btintel does not support is refused before any file is read")
    func anUnsupportedVariantIsRefused() async throws {
        try await withSteppedTime { time in
            let dongle = try ScriptedController { command, _ in
                var tlv = IntelVersionTLV()
                tlv.cnviBT = 0x0015_3700
                tlv.imageType = 0x01
                return ScriptedController.commandComplete(command.opcode, tlv.entries)
            }
            let host = try dongle.makeHost(clock: time.clock)
            await #expect { try await IntelFirmwareLoader(files: FirmwareFiles(directories: [Self.debian])).load(on: host) } throws: { error in
                guard let error = error as? FirmwareLoadError, case .controllerReport(_, let problem) = error else { return false }
                return problem.contains("hardware variant 0x15")
            }
            #expect(dongle.commands.count == 1)
            await host.close()
        }
    }

    @Test func anOperationalControllerIsLeftAlone() async throws {
        let empty = try TemporaryDirectory.make("intel-operational")
        defer { TemporaryDirectory.remove(empty) }
        try await withSteppedTime { time in
            let dongle = try ScriptedIntelController(startsOperational: true)
            let host = try dongle.controller.makeHost(clock: time.clock)
            let state = try await IntelFirmwareLoader(files: FirmwareFiles(directories: [empty.path])).load(on: host)
            #expect(state == .intelOperational(generation: "TyP"))
            #expect(dongle.controller.commands.map(\.opcode) == [ScriptedIntelController.readVersion])
            await host.close()
        }
    }

    @Test func intelUSBIDsAsBtusbHasThem() {
        for product: UInt16 in [0x0025, 0x0026, 0x0029, 0x0032, 0x0033, 0x0AAA] {
            #expect(IntelUSBIDs.contains(vendor: 0x8087, product: product))
        }
        #expect(!IntelUSBIDs.contains(vendor: 0x8087, product: 0x07DC))
        #expect(!IntelUSBIDs.contains(vendor: 0x0BDA, product: 0x0032))
    }
}
