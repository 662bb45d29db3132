/// Whether a controller runs ROM or patched firmware and which file it got, for `hil info`: from what the
/// firmware stage of a `usb:` open did, else (other monikers, where btusb loaded it or not) from what Read
/// Local Version says of a Realtek controller. Nil for a controller that needs no firmware from the host.
package struct FirmwareSummary: Codable, Sendable, Equatable {
    /// `rom`, `patched` or `unknown` (Realtek); `operational` (Intel: a bootloader answers no Read Local Version).
    package var state: String
    /// The file downloaded at this open (`rtl_bt/rtl8761bu_fw.bin`), if one was.
    package var file: String?
    /// The Realtek config, or the Intel .ddc, sent after the file.
    package var config: String?
    /// btrtl's "fw version" (HCI revision << 16 | LMP subversion) of a patched controller.
    package var version: String?
    /// Whether this open downloaded it.
    package var loadedByThisOpen: Bool
    /// One line for a person.
    package var summary: String

    package init?(stage: ControllerFirmwareState?, manufacturer: UInt16, lmpSubversion: UInt16, hciRevision: UInt16, moniker: String) {
        let version = UInt32(hciRevision) << 16 | UInt32(lmpSubversion)
        switch stage {
        case .downloaded(_, let file, let config, _, _, _, _)?:
            self.init(state: "patched", file: file, config: config, version: fwVersion(version), loadedByThisOpen: true, summary: stage?.description ?? "")
        case .alreadyPatched?:
            self.init(state: "patched", version: fwVersion(version), loadedByThisOpen: false, summary: stage?.description ?? "")
        case .unknownChip?:
            self.init(state: "unknown", loadedByThisOpen: false, summary: stage?.description ?? "")
        case .intelOperational?:
            self.init(state: "operational", loadedByThisOpen: false, summary: stage?.description ?? "")
        case .intelLoaded(_, let file, let ddc, _, _, _)?:
            self.init(state: "operational", file: file, config: ddc, loadedByThisOpen: true, summary: stage?.description ?? "")
        case .notNeeded?, nil:
            guard manufacturer == RealtekFirmwareLoader.manufacturer else { return nil }
            if let advice = FirmwareAdvisor.advice(manufacturer: manufacturer, lmpSubversion: lmpSubversion, moniker: moniker) {
                self.init(state: "rom", loadedByThisOpen: false, summary: advice)
            } else {
                self.init(state: "patched", version: fwVersion(version), loadedByThisOpen: false,
                          summary: "patched firmware (fw version \(fwVersion(version))), loaded before this open")
            }
        }
    }

    init(state: String, file: String? = nil, config: String? = nil, version: String? = nil, loadedByThisOpen: Bool, summary: String) {
        self.state = state
        self.file = file
        self.config = config
        self.version = version
        self.loadedByThisOpen = loadedByThisOpen
        self.summary = summary
    }
}
