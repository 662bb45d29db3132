@testable import BenchOperations
@testable import hil
import Testing

/// A controller that cannot be opened: whose fault the exit status says.
@Suite struct SessionOpeningTests {
    @Test func aMissingFirmwareFileIsTheBenchsFault() {
        let error = FirmwareLoadError.missingFile(name: "rtl_bt/rtl8761bu_fw.bin", searched: "/lib/firmware",
                                                  package: FirmwareLoadError.realtekPackage, chip: "rtl8761bu")
        #expect(SessionOpening.fail("info", moniker: "usb:0bda:8771", error) == .infrastructureError)
        #expect(error.description == "firmware for the rtl8761bu: rtl_bt/rtl8761bu_fw.bin not found (looked in /lib/firmware; HIL_FIRMWARE_DIR "
                + "names another directory): install firmware-realtek (Debian's non-free-firmware component), or run scripts/install-deps --firmware")
    }
}
