import BluetoothCrypto
import ControllerFirmware
import Foundation

/// `hil firmware inspect FILE [--config FILE] [--lmp-subversion N] [--rom-version N] [--json]`: what a Realtek
/// controller would be sent, chosen and merged as Linux's btrtl chooses and merges it — the chip and project
/// ID, the patch for the ROM version with its config appended, its fragments and the SHA-256 of the exact
/// octets downloaded. Reads files only; talks to no controller.
enum FirmwareCommand {
    static let usage = """
        usage: hil firmware inspect FILE [--config FILE] [--lmp-subversion N] [--rom-version N] [--json]
               hil firmware inspect FILE.sfi [--sbe-type N] [--json]
        What a Realtek controller would be sent from the epatch FILE (rtl_bt/*_fw.bin, v1 "Realtech" or v2
        "RTBTCore"), as Linux's btrtl builds it: the file's project ID names the chip family; --lmp-subversion
        (Read Local Version's, e.g. 0x8761; default: the project's) must be the project's, and 0x1200 (RTL8723A)
        takes a plain image sent whole; --rom-version (the vendor Read ROM Version's answer) picks the patch
        (needed when the file has more than one); the config (--config, default: the chip's rtl_bt config beside
        FILE, as btrtl loads it) is appended. Prints the chip, project ID, ROM version, patch and config lengths,
        the download's length and fragments (252 octets, numbered as btrtl numbers them) and its SHA-256;
        --json prints one object (chip, project_id, rom_version, length, sha256, fragments, …).
        An Intel .sfi (intel/ibt-*.sfi) is read as Linux's btintel sends it to a bootloader: the generation its
        name says, the CSS header, public key and signature for the secure boot engine (--sbe-type: 0 RSA, the
        default, or 1 ECDSA), the command buffer in 4-octet-aligned chunks, all in Secure Send fragments of up to
        252 octets; prints the boot address, the fragments, the length and SHA-256 of the exact parameters sent
        (type octet then data) and the .ddc beside it; --json: chip, length, sha256, fragments, boot_address, ….
        Numbers are decimal or 0x-hexadecimal. Exit 0; 2 for a missing or unusable firmware or config file (the
        files are Debian's firmware-realtek and firmware-iwlwifi, component non-free-firmware:
        scripts/install-deps --firmware puts them in .build/firmware/lib/firmware/rtl_bt and intel); 3 for a
        wrong command line.
        """

    /// Where to say the files come from, after a file error.
    static let packageHint = "Realtek firmware comes from Debian's firmware-realtek (component non-free-firmware; "
        + "scripts/install-deps --firmware unpacks it into .build/firmware/lib/firmware/rtl_bt)"
    /// Larger than any controller firmware by far; a bigger file is not one.
    static let maximumFileSize = 16 << 20

    struct Options {
        var file: String
        var config: String?
        var lmpSubversion: UInt16?
        var romVersion: UInt8?
        var sbeType: UInt8?
        var json: Bool

        /// An Intel bootloader's file (.sfi) rather than a Realtek epatch.
        var isIntel: Bool { file.hasSuffix(".sfi") }
    }

    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        let options: Options
        do {
            guard let subcommand = arguments.positional() else { throw UsageError("missing a subcommand (inspect)") }
            guard subcommand == "inspect" else { throw UsageError("unknown firmware command '\(subcommand)': inspect") }
            let json = arguments.flag("json")
            let config = try arguments.option("config")
            let lmp = try number(&arguments, "lmp-subversion", maximum: 0xFFFF).map { UInt16($0) }
            let rom = try number(&arguments, "rom-version", maximum: 0xFF).map { UInt8($0) }
            let sbe = try number(&arguments, "sbe-type", maximum: 0xFF).map { UInt8($0) }
            let file = try arguments.required("the firmware FILE")
            try arguments.finish()
            options = Options(file: file, config: config, lmpSubversion: lmp, romVersion: rom, sbeType: sbe, json: json)
            if options.isIntel, config != nil || lmp != nil || rom != nil {
                throw UsageError("--config, --lmp-subversion and --rom-version are for Realtek epatches, not an Intel .sfi")
            }
            if !options.isIntel, sbe != nil { throw UsageError("--sbe-type is for an Intel .sfi, not a Realtek epatch") }
        } catch {
            return Diagnostics.usageError("firmware", error)
        }
        do {
            let inspection = options.isIntel ? try FirmwareInspectIntel.inspect(file: options.file, sbeType: options.sbeType) : try inspect(options)
            if options.json {
                StandardStreams.output(try JSONSerialization.data(withJSONObject: inspection.json, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))
                print()
            } else {
                print(inspection.text, terminator: "")
            }
            return .success
        } catch let error as FirmwareError {
            return Diagnostics.fail("firmware", "\(error); \(options.isIntel ? FirmwareInspectIntel.packageHint : packageHint)", .infrastructureError)
        } catch let error as UsageError {
            return Diagnostics.usageError("firmware", error)
        } catch {
            return Diagnostics.fail("firmware", "\(error)", .infrastructureError)
        }
    }

    /// `--name N`, decimal or 0x-hexadecimal, from 0 to `maximum`.
    static func number(_ arguments: inout Arguments, _ name: String, maximum: Int) throws(UsageError) -> Int? {
        guard let text = try arguments.option(name) else { return nil }
        let lower = text.lowercased()
        let value = lower.hasPrefix("0x") ? Int(lower.dropFirst(2), radix: 16) : Int(lower)
        guard let value, (0...maximum).contains(value) else {
            throw UsageError("--\(name) takes a number from 0 to 0x\(String(maximum, radix: 16)) (decimal or 0x-hexadecimal), not '\(text)'")
        }
        return value
    }

    /// The file's octets, or a `FirmwareError` naming it: missing, unreadable, or too large to be firmware.
    static func read(_ path: String, _ what: String) throws(FirmwareError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FirmwareError(file: path, problem: "no such \(what) file")
        }
        guard !isDirectory.boolValue else { throw FirmwareError(file: path, problem: "a directory, not a \(what) file") }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= maximumFileSize else {
            throw FirmwareError(file: path, problem: "\(size) octets, larger than any \(what) file (at most \(maximumFileSize))")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FirmwareError(file: path, problem: "cannot read the \(what) file")
        }
        return [UInt8](data)
    }

    /// What inspecting the files found: the selection as text and as one JSON object.
    struct Inspection {
        var text: String
        var json: [String: Any]
    }

    static func inspect(_ options: Options) throws -> Inspection {
        let firmware = try RealtekFirmware(bytes: try read(options.file, "firmware"), file: options.file, lmpSubversion: options.lmpSubversion)
        let fileName = URL(fileURLWithPath: options.file).lastPathComponent
        let chips = RealtekChip.using(firmwareFile: fileName)
        // The ROM version: as given, or the file's only one.
        let romVersion: UInt8?
        switch (firmware, options.romVersion) {
        case (.plain, _): romVersion = nil
        case (_, let given?): romVersion = given
        case (.epatch, nil):
            let versions = firmware.romVersions
            guard versions.count == 1 else {
                throw UsageError("\(options.file) has patches for ROM versions \(versions.map { "\($0)" }.joined(separator: ", ")): "
                                 + "say which with --rom-version (the controller's vendor Read ROM Version answer)")
            }
            romVersion = versions[0]
        }
        let patch = try firmware.patch(romVersion: romVersion ?? 0)
        // The config: as given, or the one btrtl loads beside the firmware (mandatory for some chips).
        var configPath = options.config
        if configPath == nil, case .epatch = firmware, let chip = chips.first, let name = chip.configFile {
            let directory = (options.file as NSString).deletingLastPathComponent
            let beside = directory.isEmpty ? name : directory + "/" + name
            if FileManager.default.fileExists(atPath: beside) {
                configPath = beside
            } else if chip.configNeeded {
                throw FirmwareError(file: beside, problem: "no such config file, and \(chip.name) cannot be patched without it (give --config)")
            }
        }
        if configPath != nil, case .plain = firmware {
            throw UsageError("the RTL8723A's plain image takes no config")
        }
        let config = try configPath.map { path throws(FirmwareError) in try RealtekConfig(bytes: try read(path, "config"), file: path) }
        let download = RealtekDownload(patch: patch, config: config)
        let fragments = download.fragments
        let sha256 = try SHA256.hexDigest(download.payload)

        var json: [String: Any] = [
            "file": options.file, "length": download.payload.count, "patch_length": download.patchLength,
            "config": config.map { $0.file as Any } ?? NSNull(), "config_length": download.configLength,
            "fragments": fragments.count, "last_index": Int(fragments.last?.index ?? 0), "sha256": sha256,
            "controllers": chips.map(\.name),
        ]
        var lines: [String] = []
        switch firmware {
        case .plain:
            json["chip"] = "RTL8723A"; json["project_id"] = NSNull(); json["format"] = "plain"
            json["lmp_subversion"] = Int(RealtekFirmware.lmpSubversion8723A)
            json["rom_version"] = NSNull(); json["rom_versions"] = [Int]()
            lines.append("chip         RTL8723A (LMP subversion 0x1200): a plain image, sent whole")
        case .epatch(let epatch):
            let project = epatch.project
            json["chip"] = project.chip; json["project_id"] = Int(project.id); json["format"] = epatch.format.rawValue
            json["lmp_subversion"] = Int(project.lmpSubversion); json["firmware_version"] = hex(epatch.firmwareVersion, 8)
            json["rom_version"] = romVersion.map { Int($0) as Any } ?? NSNull(); json["rom_versions"] = firmware.romVersions.map { Int($0) }
            let controllers = chips.isEmpty ? "" : "; \(Set(chips.map(\.name)).sorted().joined(separator: ", "))"
            lines.append("chip         \(project.chip) (project ID \(project.id), LMP subversion \(hex(project.lmpSubversion, 4))\(controllers))")
            lines.append("epatch       \(epatch.format.rawValue), firmware version \(hex(epatch.firmwareVersion, 8))")
            lines.append("ROM version  \(romVersion.map { "\($0)" } ?? "-") (the file has \(firmware.romVersions.map { "\($0)" }.joined(separator: ", ")))")
        }
        lines.append("patch        \(download.patchLength) octets")
        lines.append("config       " + (config.map { "\($0.file), \($0.bytes.count) octets (\($0.entries.count) entries)" } ?? "none"))
        lines.append("download     \(download.payload.count) octets in \(fragments.count) fragments of up to \(RealtekDownload.fragmentLength) "
                     + "(the last, index \(hex(fragments.last?.index ?? 0, 2)), carries \(fragments.last?.range.count ?? 0))")
        lines.append("sha256       \(sha256)")
        return Inspection(text: lines.map { $0 + "\n" }.joined(), json: json)
    }

    static func hex(_ value: some BinaryInteger, _ digits: Int) -> String { "0x" + String(value, radix: 16).leftPadded(to: digits) }
}
