import HCIPackets

/// What a controller runs after the firmware stage of opening it, for `hil info`, the timeline and the doctor.
package enum ControllerFirmwareState: Sendable, Equatable, CustomStringConvertible {
    /// Not a controller that needs firmware from the host (not Realtek by USB ID or by manufacturer).
    case notNeeded
    /// Patched before we opened it (by btusb, or by an earlier open since its last power-on): Read Local
    /// Version no longer reports a ROM LMP subversion. `version` is btrtl's "fw version" (HCI revision << 16 |
    /// LMP subversion).
    case alreadyPatched(version: UInt32)
    /// We downloaded `file` (and `config`) in `fragments` Download commands of `octets` octets in all, and the
    /// controller then reported `version`.
    case downloaded(chip: String, file: String, config: String?, romVersion: UInt8, fragments: Int, octets: Int, version: UInt32)
    /// A Realtek controller btrtl's table does not know, left as it is (ROM or patched: unknown).
    case unknownChip(lmpSubversion: UInt16, hciRevision: UInt16, hciVersion: UInt8)
    /// An Intel controller already running operational firmware (loaded by btusb or an earlier open since its
    /// last reset), left alone.
    case intelOperational(generation: String)
    /// We sent the Intel bootloader `file` in `fragments` Secure Sends (`octets` parameter octets in all),
    /// booted it at `bootAddress` and wrote `ddc` (nil: none was found); no fragments when the bootloader
    /// reported the file's build, which btintel only boots.
    case intelLoaded(generation: String, file: String, ddc: String?, fragments: Int, octets: Int, bootAddress: UInt32)

    package var description: String {
        switch self {
        case .notNeeded:
            "no firmware needed"
        case .alreadyPatched(let version):
            "patched firmware (fw version \(fwVersion(version))), loaded before this open"
        case .downloaded(let chip, let file, let config, let rom, let fragments, let octets, let version):
            "patched firmware \(file)\(config.map { " + \($0)" } ?? "") loaded into the \(chip) (ROM version \(rom), "
                + "\(octets) octets in \(fragments) fragments; fw version \(fwVersion(version)))"
        case .unknownChip(let lmp, let revision, let version):
            "a Realtek controller btrtl does not know (LMP subversion 0x\(hex4(lmp)), HCI revision 0x\(hex4(revision)), HCI version \(version)): no firmware loaded"
        case .intelOperational(let generation):
            "operational firmware on the Intel \(generation), loaded before this open"
        case .intelLoaded(let generation, let file, let ddc, let fragments, let octets, let address):
            "operational firmware \(file)\(ddc.map { " + \($0)" } ?? " (no .ddc)") loaded into the Intel \(generation) bootloader "
                + (fragments == 0 ? "(it held the file's build: booted at 0x\(String(address, radix: 16)) without a download)"
                                  : "(\(octets) octets in \(fragments) Secure Send fragments; booted at 0x\(String(address, radix: 16)))")
        }
    }
}

/// btrtl's "fw version": `0x` and 8 hexadecimal digits (HCI revision, then LMP subversion).
func fwVersion(_ value: UInt32) -> String { "0x" + hex4(UInt16(value >> 16)) + hex4(UInt16(value & 0xFFFF)) }
