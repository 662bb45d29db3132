import ControllerFirmware
import HCIPackets
import HostCore

/// The firmware stage of opening a Realtek `usb:` controller, as Linux's btrtl (`btrtl_setup_realtek`,
/// `rtl_download_firmware`) and Bumble's rtk driver (`Driver.init_controller`) do it: HCI Reset, Read Local
/// Version (the chip in btrtl's table; a controller whose LMP subversion is no longer its ROM one is already
/// patched and left alone), the vendor Read ROM Version, the patch for that ROM merged with its config, the
/// vendor Download commands as `RealtekDownload` cuts and numbers them, then HCI Reset and Read Local Version:
/// the controller must report the file's firmware version (btrtl's "fw version", HCI revision << 16 | LMP
/// subversion) for a version 1 epatch, and no longer its ROM LMP subversion for any.
///
/// Every command waits at most `commandTimeout` on the host's clock and ends at once when the task is
/// cancelled (`HCIHost.send`); a failure names the step that was awaited.
package struct RealtekFirmwareLoader: Sendable {
    package let files: FirmwareFiles
    package let commandTimeout: Duration

    package init(files: FirmwareFiles, commandTimeout: Duration = .seconds(2)) {
        self.files = files
        self.commandTimeout = commandTimeout
    }

    /// Company identifier 93 (0x005D): Realtek Semiconductor Corporation.
    package static let manufacturer: UInt16 = 0x005D

    /// Runs the stage on a host that has not been initialized yet; returns what the controller runs now.
    package func load(on host: HCIHost) async throws(FirmwareLoadError) -> ControllerFirmwareState {
        try await send(Reset(), on: host, "Command Complete for HCI Reset (before the firmware stage)")
        let rom = try await send(ReadLocalVersionInformation(), on: host, "Command Complete for Read Local Version (before the firmware stage)")
        guard rom.manufacturer.rawValue == Self.manufacturer else { return .notNeeded }
        guard let chip = RealtekChip.matching(lmpSubversion: rom.lmpSubversion, hciRevision: rom.hciSubversion, hciVersion: rom.hciVersion.rawValue) else {
            if FirmwareAdvisor.realtekROMSubversions[rom.lmpSubversion] != nil {
                return .unknownChip(lmpSubversion: rom.lmpSubversion, hciRevision: rom.hciSubversion, hciVersion: rom.hciVersion.rawValue)
            }
            return .alreadyPatched(version: Self.version(rom))
        }
        let romVersion = chip.hasROMVersion
            ? try await send(RealtekReadROMVersion(), on: host, "Command Complete for the vendor Read ROM Version (0xFC6D) of the \(chip.name)")
            : 0
        let selected = try select(chip, romVersion: romVersion)
        let fragments = selected.download.fragments
        for (number, fragment) in fragments.enumerated() {
            let command = RealtekDownloadFragment(index: fragment.index, data: selected.download.payload[fragment.range])
            _ = try await send(command, on: host, "Command Complete for Download (0xFC20) fragment \(number + 1) of \(fragments.count) "
                               + "(index 0x\(hex2(fragment.index))) of \(selected.firmwareName)")
        }
        try await send(Reset(), on: host, "Command Complete for HCI Reset (after downloading \(selected.firmwareName))")
        let patched = try await send(ReadLocalVersionInformation(), on: host, "Command Complete for Read Local Version (after downloading \(selected.firmwareName))")
        let found = Self.version(patched)
        if patched.lmpSubversion == chip.lmpSubversion && patched.hciSubversion == chip.hciRevision {
            throw .notPatched(chip: chip.name, file: selected.firmwareName, expected: "an LMP subversion other than the ROM's 0x\(hex4(chip.lmpSubversion))",
                              found: "fw version \(fwVersion(found)), the ROM's")
        }
        if let expected = selected.expectedVersion, expected != found {
            throw .notPatched(chip: chip.name, file: selected.firmwareName, expected: "fw version \(fwVersion(expected)) (the epatch's firmware version)",
                              found: "fw version \(fwVersion(found))")
        }
        return .downloaded(chip: chip.name, file: selected.firmwareName, config: selected.configName, romVersion: romVersion,
                           fragments: fragments.count, octets: selected.download.payload.count, version: found)
    }

    /// btrtl's "fw version" of a Read Local Version: HCI revision << 16 | LMP subversion.
    static func version(_ response: ReadLocalVersionInformation.Response) -> UInt32 {
        UInt32(response.hciSubversion) << 16 | UInt32(response.lmpSubversion)
    }

    /// What is downloaded to `chip` at ROM version `romVersion`, from its files.
    struct Selection {
        let firmwareName: String
        let configName: String?
        let download: RealtekDownload
        /// The version a version 1 epatch makes the controller report; nil when the file does not say.
        let expectedVersion: UInt32?
    }

    /// Reads the chip's firmware (btrtl's names in order) and config and picks the patch for `romVersion`.
    func select(_ chip: RealtekChip, romVersion: UInt8) throws(FirmwareLoadError) -> Selection {
        let package = FirmwareLoadError.realtekPackage
        let names = chip.firmwareFiles.map { "rtl_bt/" + $0 }
        guard let (name, found) = names.lazy.compactMap({ name in files.read(name).map { (name, $0) } }).first else {
            throw .missingFile(name: names.joined(separator: " or "), searched: files.searched, package: package, chip: chip.name)
        }
        var config: RealtekConfig?
        var configName: String?
        if let configFile = chip.configFile {
            let name = "rtl_bt/" + configFile
            if let read = files.read(name) {
                do { config = try RealtekConfig(bytes: read.bytes, file: read.path) } catch { throw .unusableFile(error, package: package, chip: chip.name) }
                configName = name
            } else if chip.configNeeded {
                throw .missingFile(name: name, searched: files.searched, package: package, chip: chip.name)
            }
        }
        do {
            let firmware = try RealtekFirmware(bytes: found.bytes, file: found.path, lmpSubversion: chip.lmpSubversion)
            let patch = try firmware.patch(romVersion: romVersion)
            var expected: UInt32?
            if case .epatch(let epatch) = firmware, epatch.format == .v1 { expected = epatch.firmwareVersion }
            return Selection(firmwareName: name, configName: configName, download: RealtekDownload(patch: patch, config: config), expectedVersion: expected)
        } catch {
            throw .unusableFile(error, package: package, chip: chip.name)
        }
    }

    /// Sends `command` within the stage's deadline; a failure says what was awaited.
    @discardableResult
    func send<Command: HCICommand>(_ command: Command, on host: HCIHost, _ awaited: String) async throws(FirmwareLoadError) -> Command.Response {
        do {
            return try await host.send(command, timeout: commandTimeout)
        } catch {
            throw .controller(step: awaited, error)
        }
    }
}
