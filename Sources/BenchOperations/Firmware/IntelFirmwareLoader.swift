import ControllerFirmware
import HCIPackets
import HostCore

/// The firmware stage of opening an Intel `usb:` controller, as Linux's btintel (`btintel_setup_combined`,
/// `btintel_bootloader_setup_tlv`, `btintel_bootloader_setup`) does it: Intel Read Version (TLV form; the
/// legacy form for the JfP…CcP generations); a controller running operational firmware is left alone; a
/// bootloader gets its .sfi in Secure Send fragments (`IntelSFI`) — unless it reports the file's build as the
/// one it holds, which btintel only boots — then the loader awaits the bootloader's
/// "firmware loading complete" vendor event, sends Intel Reset with the file's boot address, awaits the
/// operational firmware's "bootup" vendor event, reads the version again (it must report operational) and
/// writes the .ddc's records with Intel Write DDC (a missing .ddc is tolerated, as btintel tolerates it).
///
/// Every command waits at most `commandTimeout`; the two vendor events wait 5 s each (btintel's
/// `btintel_download_wait` and `btintel_boot_wait`), from the last Secure Send and from the Intel Reset; all
/// on the host's clock and ended at once by the task's cancellation. A failure names what was awaited.
package struct IntelFirmwareLoader: Sendable {
    package let files: FirmwareFiles
    package let commandTimeout: Duration
    package let eventTimeout: Duration

    package init(files: FirmwareFiles, commandTimeout: Duration = .seconds(2), eventTimeout: Duration = .seconds(5)) {
        self.files = files
        self.commandTimeout = commandTimeout
        self.eventTimeout = eventTimeout
    }

    /// Runs the stage on a host that has not been initialized yet; returns what the controller runs now.
    /// `bootloaderMode` switches the transport into the bootloader's ways while a bootloader is loaded
    /// (`USBTransport.setIntelBootloader`: Secure Send on bulk OUT, events on bulk IN), and back at the end.
    package func load(on host: HCIHost, bootloaderMode: (@Sendable (Bool) -> Void)? = nil) async throws(FirmwareLoadError) -> ControllerFirmwareState {
        var version = try await readVersion(on: host, tlv: true, "before the firmware stage")
        if case .tlv(let tlv) = version {
            if (0x11...0x14).contains(tlv.hardwareVariant) {
                // btintel: these legacy generations' files are named by the legacy form, which they also answer.
                version = try await readVersion(on: host, tlv: false, "legacy form, for a \(version.generation) controller")
            } else if !Self.tlvVariants.contains(tlv.hardwareVariant) {
                throw .controllerReport(chip: "Intel controller", problem: "hardware variant 0x\(hex2(tlv.hardwareVariant)) in the TLV form: btintel supports "
                                        + Self.tlvVariants.map { "0x\(hex2($0))" }.joined(separator: ", ") + " (and 0x11 to 0x14 through the legacy form)")
            }
        }
        if version.isOperational { return .intelOperational(generation: version.generation) }
        guard version.isBootloader else {
            throw .controllerReport(chip: "Intel \(version.generation)", problem: "neither its bootloader nor operational firmware runs (\(version))")
        }
        let chip = "Intel \(version.generation) bootloader"
        bootloaderMode?(true)
        defer { bootloaderMode?(false) }
        let (sfiName, ddcName) = try await names(version, on: host, chip: chip)
        let sfi = try readSFI(sfiName, chip: chip)
        let engine = try engine(version, sfi: sfi, chip: chip)
        let fragments: [IntelSecureSendFragment]
        do { fragments = try sfi.fragments(engine: engine) } catch { throw .unusableFile(error, package: FirmwareLoadError.intelPackage, chip: chip) }
        let bootAddress = sfi.bootParams?.address ?? 0
        // btintel (`btintel_firmware_version`): a bootloader that reports the file's build already holds it, and is only booted.
        let alreadyLoaded = sfi.bootParams.map { Self.reportedBuild(version) == $0.build } ?? false
        for (number, fragment) in fragments.enumerated() where !alreadyLoaded {
            let awaited = "Command Complete for Secure Send (0xFC09) fragment \(number + 1) of \(fragments.count) (\(fragment.type)) of \(sfiName)"
            if number == fragments.count - 1 {
                let loaded = try await expect(host, "the vendor event 0xFF 0x06 (firmware loading complete) after the last Secure Send of \(sfiName)") {
                    IntelVendorEvent.body($0, kind: IntelVendorEvent.secureSendResult, length: IntelVendorEvent.secureSendResultLength)
                }
                try await send(IntelSecureSend(type: fragment.type.rawValue, data: sfi.bytes[fragment.range]), on: host, awaited, discarding: loaded)
                let result = try await wait(loaded, on: host, "the vendor event 0xFF 0x06 (firmware loading complete) after \(sfiName)")
                if result.first != 0 {
                    throw .controllerReport(chip: chip, problem: "it refused \(sfiName): firmware loading complete with result 0x\(hex2(result.first ?? 0))")
                }
            } else {
                try await send(IntelSecureSend(type: fragment.type.rawValue, data: sfi.bytes[fragment.range]), on: host, awaited)
            }
        }
        let booted = try await expect(host, "the vendor event 0xFF 0x02 (bootup) after Intel Reset to 0x\(String(bootAddress, radix: 16))") {
            IntelVendorEvent.body($0, kind: IntelVendorEvent.bootup, length: IntelVendorEvent.bootupLength)
        }
        try await send(IntelReset(bootAddress: bootAddress), on: host, "Command Complete for Intel Reset (0xFC01) after \(sfiName)", discarding: booted)
        _ = try await wait(booted, on: host, "the vendor event 0xFF 0x02 (bootup) after Intel Reset")
        let running = try await readVersion(on: host, tlv: true, "after booting \(sfiName)")
        guard running.isOperational else {
            throw .notPatched(chip: chip, file: sfiName, expected: "operational firmware (image type 0x03)", found: "\(running)")
        }
        let ddc = try await writeDDC(ddcName, on: host, chip: chip)
        return .intelLoaded(generation: version.generation, file: sfiName, ddc: ddc, fragments: alreadyLoaded ? 0 : fragments.count,
                            octets: alreadyLoaded ? 0 : fragments.reduce(0) { $0 + 1 + $1.range.count }, bootAddress: bootAddress)
    }

    /// The build a bootloader says it holds, as btintel compares it with the file's Write Boot Params: the TLV
    /// form's minimum firmware build, the legacy form's firmware build (nil for SfP and WsP, whose files do
    /// not carry theirs).
    static func reportedBuild(_ version: IntelVersion) -> IntelFirmwareBuild? {
        switch version {
        case .tlv(let tlv): tlv.minimumFirmware
        case .legacy(let legacy) where legacy.hwVariant != 0x0B && legacy.hwVariant != 0x0C:
            IntelFirmwareBuild(number: legacy.fwBuildNumber, week: legacy.fwBuildWeek, year: legacy.fwBuildYear)
        case .legacy: nil
        }
    }

    /// The hardware variants btintel loads through the TLV form (`btintel_setup_combined`): TyP, Slr, Slr-F,
    /// Mgr, GaP, BzrU, Bzr.
    static let tlvVariants: [UInt8] = [0x17, 0x18, 0x19, 0x1B, 0x1C, 0x1D, 0x1E]

    /// Intel Read Version, TLV (parameter 0xFF) or legacy (none), read as `IntelVersion`.
    func readVersion(on host: HCIHost, tlv: Bool, _ when: String) async throws(FirmwareLoadError) -> IntelVersion {
        let awaited = "Command Complete for Intel Read Version (0xFC05, \(when))"
        let bytes: [UInt8]
        do {
            bytes = try await host.sendRaw(HCICommandPacket(opcode: IntelOpcodes.readVersion, parameters: tlv ? [0xFF] : []), timeout: commandTimeout)
        } catch {
            throw .controller(step: awaited, error)
        }
        do { return try IntelVersion(returnParameters: bytes) } catch { throw .controllerReport(chip: "Intel controller", problem: "\(error)") }
    }

    /// The .sfi and .ddc names btintel derives; SfP and WsP need Intel Read Boot Params' device revision.
    func names(_ version: IntelVersion, on host: HCIHost, chip: String) async throws(FirmwareLoadError) -> (sfi: String, ddc: String) {
        switch version {
        case .tlv(let tlv):
            guard tlv.hardwarePlatform == IntelLegacyVersion.platform else {
                throw .controllerReport(chip: chip, problem: "hardware platform 0x\(hex2(tlv.hardwarePlatform)), btintel supports 0x37 alone")
            }
            guard tlv.limitedCCE == 0 else {
                throw .controllerReport(chip: chip, problem: "limited CCE 0x\(hex2(tlv.limitedCCE)): it does not acknowledge every fragment, which btintel refuses")
            }
            return (tlv.firmwareName(suffix: "sfi"), tlv.firmwareName(suffix: "ddc"))
        case .legacy(let legacy):
            var devRevID: UInt16?
            if legacy.hwVariant == 0x0B || legacy.hwVariant == 0x0C {
                let awaited = "Command Complete for Intel Read Boot Params (0xFC0D) of the \(chip)"
                let bytes: [UInt8]
                do { bytes = try await host.sendRaw(HCICommandPacket(opcode: IntelOpcodes.readBootParams, parameters: []), timeout: commandTimeout) } catch {
                    throw .controller(step: awaited, error)
                }
                // btintel.h's intel_boot_params after its status: otp_format, otp_content, otp_patch, dev_revid.
                guard bytes.count >= 5 else { throw .controllerReport(chip: chip, problem: "Intel Read Boot Params returned \(bytes.count) octets, dev_revid needs 5") }
                devRevID = UInt16(bytes[3]) | UInt16(bytes[4]) << 8
            }
            guard let sfi = legacy.firmwareName(suffix: "sfi", devRevID: devRevID), let ddc = legacy.firmwareName(suffix: "ddc", devRevID: devRevID) else {
                throw .controllerReport(chip: chip, problem: "btintel names no firmware file for hardware variant 0x\(hex2(legacy.hwVariant))")
            }
            return (sfi, ddc)
        }
    }

    func readSFI(_ name: String, chip: String) throws(FirmwareLoadError) -> IntelSFI {
        guard let found = files.read(name) else {
            throw .missingFile(name: name, searched: files.searched, package: FirmwareLoadError.intelPackage, chip: chip)
        }
        do { return try IntelSFI(bytes: found.bytes, file: found.path) } catch { throw .unusableFile(error, package: FirmwareLoadError.intelPackage, chip: chip) }
    }

    /// The headers btintel sends (`btintel_download_fw_tlv`): RSA for the legacy generations (an ECDSA
    /// layout is a file for another chip), for TyP and later the secure boot engine's, whose file must have
    /// the ECDSA header.
    func engine(_ version: IntelVersion, sfi: IntelSFI, chip: String) throws(FirmwareLoadError) -> IntelSFI.Engine {
        let refuse = { (problem: String) in FirmwareLoadError.unusableFile(FirmwareError(file: sfi.file, problem: problem), package: FirmwareLoadError.intelPackage, chip: chip) }
        guard case .tlv(let tlv) = version, tlv.hardwareVariant >= 0x17 else {
            if sfi.hasECDSAHeader { throw refuse("an .sfi of the TLV generations (an ECDSA header at 644), not for a \(version.generation) bootloader") }
            return .rsa
        }
        guard sfi.hasECDSAHeader else { throw refuse("no ECDSA header at 644, which btintel requires for a \(version.generation) bootloader") }
        guard let engine = IntelSFI.Engine(rawValue: tlv.sbeType) else {
            throw .controllerReport(chip: chip, problem: "secure boot engine type 0x\(hex2(tlv.sbeType)): btintel knows 0x00 (RSA) and 0x01 (ECDSA)")
        }
        return engine
    }

    /// Writes the .ddc's records; nil when there is no .ddc (btintel goes on without it).
    func writeDDC(_ name: String, on host: HCIHost, chip: String) async throws(FirmwareLoadError) -> String? {
        guard let found = files.read(name) else { return nil }
        let ddc: IntelDDC
        do { ddc = try IntelDDC(bytes: found.bytes, file: found.path) } catch { throw .unusableFile(error, package: FirmwareLoadError.intelPackage, chip: chip) }
        for (number, record) in ddc.commands.enumerated() {
            try await send(IntelWriteDDC(record: record), on: host, "Command Complete for Intel Write DDC (0xFC8B) record \(number + 1) of \(ddc.records.count) of \(name)")
        }
        return name
    }

    /// Sends `command` within the command deadline; a failure says what was awaited (and drops `pending`).
    func send<Command: HCICommand>(_ command: Command, on host: HCIHost, _ awaited: String,
                                   discarding pending: Expectation<[UInt8]>? = nil) async throws(FirmwareLoadError) {
        do {
            _ = try await host.send(command, timeout: commandTimeout)
        } catch {
            if let pending { await host.discard(pending) }
            throw .controller(step: awaited, error)
        }
    }

    /// Starts watching for the vendor event `match` picks, before the command that causes it.
    func expect(_ host: HCIHost, _ awaited: String, _ match: @escaping @Sendable (HCIEvent) -> [UInt8]?) async throws(FirmwareLoadError) -> Expectation<[UInt8]> {
        do {
            return try await host.expect(awaited, timeout: eventTimeout) { event in
                if case .hci(let hci) = event { return match(hci) }
                return nil
            }
        } catch {
            throw .controller(step: awaited, error)
        }
    }

    func wait(_ expectation: Expectation<[UInt8]>, on host: HCIHost, _ awaited: String) async throws(FirmwareLoadError) -> [UInt8] {
        do { return try await host.wait(for: expectation) } catch { throw .controller(step: awaited, error) }
    }
}
