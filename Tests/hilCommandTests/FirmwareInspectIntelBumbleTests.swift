import Foundation
import Testing
import TestSupport

/// `hil firmware inspect` on Debian's firmware-iwlwifi (`scripts/install-deps --firmware` unpacks it into
/// .build/firmware/lib/firmware; HIL_FIRMWARE_DIR names another root), checked against Bumble's own Intel
/// driver (scripts/peers/bumble-intel-firmware.py runs `bumble.drivers.intel.Driver.load_firmware` against a
/// stand-in bootloader and records what it sends) on every intel/ibt-XXXX-YYYY.sfi and both secure boot
/// engines: the same Secure Send fragments (count, length and SHA-256 of their parameters), the same Intel
/// Reset boot address, the same Write DDC commands from the .ddc beside it. The legacy files (ibt-17-16-1, …),
/// which Bumble's driver does not load, must inspect too; truncated and foreign files are exit 2 naming the
/// file and firmware-iwlwifi.
@Suite(.serialized, .tags(.process)) struct FirmwareInspectIntelBumbleTests {
    static let firmwareRoot = BumbleFirmwareScripts.firmwareRoot
    /// The generations the issue names, by the files Debian ships for them: AX210 (TyP) and the legacy
    /// JfP/ThP (9260/9560), HrP (AX201) and CcP (AX200) bootloaders.
    static let expectedFiles = ["ibt-0041-0041.sfi"]
    static let legacyFiles = ["ibt-17-16-1.sfi", "ibt-18-16-1.sfi", "ibt-19-0-4.sfi", "ibt-20-1-3.sfi"]

    static func requireFirmware() throws { try BumbleFirmwareScripts.require("intel/ibt-0041-0041.sfi", package: "firmware-iwlwifi") }
    static func json(_ text: String) -> [String: Any]? { BumbleFirmwareScripts.json(text) }

    @Test("Every TLV .sfi and engine: the fragments, SHA-256, boot address and DDC commands Bumble's driver sends")
    func agreesWithBumble() async throws {
        try Self.requireFirmware()
        let entries = try await BumbleFirmwareScripts.entries("bumble-intel-firmware.py")
        let files = Set(entries.compactMap { ($0["file"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } })
        #expect(Set(Self.expectedFiles).isSubset(of: files), "checked: \(files.sorted())")
        for entry in entries {
            let file = try #require(entry["file"] as? String)
            let engine = try #require(entry["sbe_type"] as? Int)
            let ran = try await HelpAndVersionTests.hil(["firmware", "inspect", file, "--sbe-type", "\(engine)", "--json"])
            try #require(ran.status == 0, "\(file): \(ran.stderr)")
            let ours = try #require(Self.json(ran.stdout), "\(ran.stdout)")
            let what = "\(URL(fileURLWithPath: file).lastPathComponent) sbe_type \(engine)"
            #expect(ours["fragments"] as? Int == entry["fragments"] as? Int, "\(what)")
            #expect(ours["length"] as? Int == entry["length"] as? Int, "\(what)")
            #expect(ours["sha256"] as? String == entry["sha256"] as? String, "\(what)")
            #expect(ours["boot_address"] as? Int == entry["boot_address"] as? Int, "\(what)")
            #expect(ours["ddc_commands"] as? Int == entry["ddc_commands"] as? Int, "\(what)")
            #expect(ours["ddc_sha256"] as? String == entry["ddc_sha256"] as? String, "\(what)")
        }
        #expect(entries.count >= 2 * Self.expectedFiles.count, "only \(entries.count) file and engine pairs compared")
    }

    @Test("The legacy generations' files inspect: RSA only, a boot address, fragments of at most 252 octets")
    func legacyFiles() async throws {
        try Self.requireFirmware()
        for name in Self.legacyFiles {
            let file = Self.firmwareRoot + "/intel/" + name
            let ran = try await HelpAndVersionTests.hil(["firmware", "inspect", file, "--json"])
            try #require(ran.status == 0, "\(name): \(ran.stderr)")
            let ours = try #require(Self.json(ran.stdout))
            #expect(ours["layout"] as? String == "rsa", "\(name)")
            #expect((ours["boot_address"] as? Int ?? 0) != 0, "\(name)")
            let length = try #require(ours["length"] as? Int), fragments = try #require(ours["fragments"] as? Int)
            // Every fragment carries its type octet and 1 to 252 octets.
            #expect(length > fragments * 2 && length <= fragments * 253, "\(name)")
            let ecdsa = try await HelpAndVersionTests.hil(["firmware", "inspect", file, "--sbe-type", "1"])
            #expect(ecdsa.status == 2 && ecdsa.stderr.contains("no ECDSA header"), "\(name): \(ecdsa.stderr)")
        }
    }

    @Test("Exit 2 for a truncated or foreign .sfi, naming it and firmware-iwlwifi; 3 for Realtek options")
    func exitStatuses() async throws {
        try Self.requireFirmware()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("hil-intel-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let real = Self.firmwareRoot + "/intel/ibt-0041-0041.sfi"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: real))
        let truncated = scratch.appendingPathComponent("ibt-0041-0041.sfi").path
        try bytes.prefix(bytes.count - 1000).write(to: URL(fileURLWithPath: truncated))
        let foreign = scratch.appendingPathComponent("foreign.sfi").path
        try Data(contentsOf: URL(fileURLWithPath: Self.firmwareRoot + "/intel/ibt-0041-0041.ddc")).write(to: URL(fileURLWithPath: foreign))
        for file in [truncated, foreign, scratch.appendingPathComponent("absent.sfi").path] {
            let ran = try await HelpAndVersionTests.hil(["firmware", "inspect", file])
            #expect(ran.status == 2, "\(file): \(ran.stdout) \(ran.stderr)")
            #expect(ran.stderr.contains(file) && ran.stderr.contains("firmware-iwlwifi") && ran.stderr.contains("non-free-firmware"), "\(ran.stderr)")
            #expect(ran.stderr.split(separator: "\n").count == 1, "\(ran.stderr)")
        }
        for arguments in [["firmware", "inspect", real, "--rom-version", "1"], ["firmware", "inspect", real, "--sbe-type", "2"],
                          ["firmware", "inspect", Self.firmwareRoot + "/rtl_bt/rtl8761bu_fw.bin", "--sbe-type", "1"]] {
            let ran = try await HelpAndVersionTests.hil(arguments)
            #expect(ran.status == 3, "\(arguments): \(ran.stdout) \(ran.stderr)")
        }
    }
}
