import ControllerFirmware
import HostCore

/// Why a controller's firmware stage failed: an infrastructure error of the bench (exit 2 from the commands,
/// an infrastructure error in `hil run`), never a product failure. Every case says which file or which
/// command, and for a file which Debian package ships it.
package enum FirmwareLoadError: Error, Sendable, CustomStringConvertible {
    /// No directory has the file (`name` relative to them, e.g. `rtl_bt/rtl8761bu_fw.bin`).
    case missingFile(name: String, searched: String, package: String, chip: String)
    /// The file is there but truncated, of another format, for another chip, or has no patch for the ROM.
    case unusableFile(FirmwareError, package: String, chip: String)
    /// A command of the stage failed or timed out; `step` says what was awaited.
    case controller(step: String, HCIError)
    /// After the download the controller does not report the patched version the file carries.
    case notPatched(chip: String, file: String, expected: String, found: String)
    /// The controller's own report rules the stage out (an unsupported platform or loading method, a
    /// malformed Intel Read Version, a refused download).
    case controllerReport(chip: String, problem: String)

    /// The Debian package and component Realtek's `rtl_bt/` files come from.
    package static let realtekPackage = "firmware-realtek (Debian's non-free-firmware component)"
    /// The Debian package and component Intel's `intel/ibt-*` files come from.
    package static let intelPackage = "firmware-iwlwifi (Debian's non-free-firmware component)"

    package var description: String {
        switch self {
        case .missingFile(let name, let searched, let package, let chip):
            "firmware for the \(chip): \(name) not found (looked in \(searched); HIL_FIRMWARE_DIR names another directory): install \(package), or run scripts/install-deps --firmware"
        case .unusableFile(let error, let package, let chip):
            "firmware for the \(chip) unusable: \(error) (the file comes from \(package))"
        case .controller(let step, let error):
            "firmware stage: \(step): \(error)"
        case .notPatched(let chip, let file, let expected, let found):
            "firmware stage: the \(chip) does not run \(file) after the download: expected \(expected), the controller reports \(found)"
        case .controllerReport(let chip, let problem):
            "firmware stage: the \(chip): \(problem)"
        }
    }
}
