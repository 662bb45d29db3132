import Foundation
import Testing
import TestSupport

/// `hil firmware inspect` on Debian's firmware-realtek (`scripts/install-deps --firmware` unpacks it into
/// .build/firmware/lib/firmware; HIL_FIRMWARE_DIR names another root), checked against Bumble's own Realtek
/// parser (scripts/peers/bumble-rtk-firmware.py: bumble.drivers.rtk's `Firmware`, its patch choice and its
/// config merge) on every rtl_bt/*_fw.bin and every ROM version each has a patch for, and the exit statuses of
/// files that are missing or not firmware. Where Bumble and Linux's btrtl differ, btrtl is the reference:
/// btrtl sends `length / 252 + 1` fragments, so a payload of a whole number of fragments (rtl8761a_fw.bin's
/// patch for ROM version 2) ends in an empty one that Bumble does not send.
@Suite(.serialized, .tags(.process)) struct FirmwareInspectBumbleTests {
    static let firmwareRoot = BumbleFirmwareScripts.firmwareRoot
    /// The chips of Debian's package that the issue names: each must be among the files checked.
    static let expectedFiles = ["rtl8723b_fw.bin", "rtl8723d_fw.bin", "rtl8761a_fw.bin", "rtl8761bu_fw.bin", "rtl8821a_fw.bin",
                                "rtl8821c_fw.bin", "rtl8822b_fw.bin", "rtl8822cu_fw.bin", "rtl8852au_fw.bin", "rtl8852bu_fw.bin",
                                "rtl8852cu_fw.bin"]

    static func requireFirmware() throws { try BumbleFirmwareScripts.require("rtl_bt/rtl8761bu_fw.bin", package: "firmware-realtek") }
    static func json(_ text: String) -> [String: Any]? { BumbleFirmwareScripts.json(text) }

    @Test("Every rtl_bt/*_fw.bin and ROM version: the chip, project ID, lengths and SHA-256 Bumble's parser gives")
    func agreesWithBumble() async throws {
        try Self.requireFirmware()
        let entries = try await BumbleFirmwareScripts.entries("bumble-rtk-firmware.py")
        let files = Set(entries.compactMap { ($0["file"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } })
        #expect(Set(Self.expectedFiles).isSubset(of: files), "checked: \(files.sorted())")
        var compared = 0
        for entry in entries {
            let file = try #require(entry["file"] as? String)
            if let error = entry["error"] as? String {
                // Bumble cannot parse it (rtl8723a_fw.bin, a plain image): neither can inspect as an epatch…
                let refused = try await HelpAndVersionTests.hil(["firmware", "inspect", file])
                #expect(refused.status == 2, "\(file): Bumble says \(error); hil: \(refused.stdout) \(refused.stderr)")
                #expect(refused.stderr.contains(file) && refused.stderr.contains("firmware-realtek"))
                // …but for the RTL8723A (LMP subversion 0x1200) btrtl sends it whole.
                if file.hasSuffix("/rtl8723a_fw.bin") {
                    let plain = try await HelpAndVersionTests.hil(["firmware", "inspect", file, "--lmp-subversion", "0x1200", "--json"])
                    #expect(plain.status == 0, "\(plain.stderr)")
                    #expect(Self.json(plain.stdout)?["sha256"] as? String == entry["file_sha256"] as? String)
                }
                continue
            }
            let rom = try #require(entry["rom_version"] as? Int)
            var arguments = ["firmware", "inspect", file, "--rom-version", "\(rom)", "--json"]
            if let config = entry["config"] as? String { arguments += ["--config", config] }
            let ran = try await HelpAndVersionTests.hil(arguments)
            try #require(ran.status == 0, "\(arguments): \(ran.stderr)")
            let ours = try #require(Self.json(ran.stdout), "\(ran.stdout)")
            let what = "\(URL(fileURLWithPath: file).lastPathComponent) ROM \(rom)"
            #expect(ours["chip"] as? String == entry["chip"] as? String, "\(what)")
            #expect(ours["project_id"] as? Int == entry["project_id"] as? Int, "\(what)")
            #expect(ours["patch_length"] as? Int == entry["patch_length"] as? Int, "\(what)")
            #expect(ours["length"] as? Int == entry["length"] as? Int, "\(what)")
            #expect(ours["sha256"] as? String == entry["sha256"] as? String, "\(what)")
            #expect(ours["config"] as? String == entry["config"] as? String, "\(what)")
            let length = try #require(entry["length"] as? Int), bumbleFragments = try #require(entry["fragments"] as? Int)
            // btrtl's count: one more than Bumble's when the payload fills its last fragment exactly.
            #expect(ours["fragments"] as? Int == bumbleFragments + (length % 252 == 0 ? 1 : 0), "\(what)")
            compared += 1
        }
        #expect(compared >= 30, "only \(compared) file and ROM version pairs compared")
    }

    @Test("Exit 2 for a missing, foreign or truncated file, naming it and Debian's package; 3 for a wrong command line")
    func exitStatuses() async throws {
        try Self.requireFirmware()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("hil-firmware-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let real = Self.firmwareRoot + "/rtl_bt/rtl8761bu_fw.bin"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: real))
        let truncated = scratch.appendingPathComponent("rtl8761bu_fw.bin").path
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: truncated))
        let foreign = scratch.appendingPathComponent("foreign_fw.bin").path
        try Data("not firmware at all".utf8).write(to: URL(fileURLWithPath: foreign))

        for (arguments, file) in [(["firmware", "inspect", scratch.appendingPathComponent("absent_fw.bin").path], "absent_fw.bin"),
                                  (["firmware", "inspect", truncated, "--rom-version", "1"], truncated),
                                  (["firmware", "inspect", foreign], foreign),
                                  (["firmware", "inspect", real, "--rom-version", "7"], real),
                                  (["firmware", "inspect", real, "--rom-version", "1", "--lmp-subversion", "0x8822"], real),
                                  (["firmware", "inspect", real, "--rom-version", "1", "--config", foreign], foreign)] {
            let ran = try await HelpAndVersionTests.hil(arguments)
            #expect(ran.status == 2, "\(arguments): \(ran.stdout) \(ran.stderr)")
            #expect(ran.stderr.contains(file) && ran.stderr.contains("firmware-realtek") && ran.stderr.contains("non-free-firmware"), "\(ran.stderr)")
            #expect(ran.stderr.split(separator: "\n").count == 1, "\(ran.stderr)")
        }
        for arguments in [["firmware"], ["firmware", "list"], ["firmware", "inspect"], ["firmware", "inspect", real, "--rom-version", "256"],
                          ["firmware", "inspect", real, "--lmp-subversion", "x"], ["firmware", "inspect", real]] {
            let ran = try await HelpAndVersionTests.hil(arguments)
            #expect(ran.status == 3, "\(arguments): \(ran.stdout) \(ran.stderr)")
            #expect(ran.stderr.contains("see 'hil firmware --help'"), "\(ran.stderr)")
        }
        let text = try await HelpAndVersionTests.hil(["firmware", "inspect", real, "--rom-version", "1"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("RTL8761B (project ID 14, LMP subversion 0x8761; rtl8761bu)"), "\(text.stdout)")
        #expect(text.stdout.contains("sha256       "), "\(text.stdout)")
    }
}
