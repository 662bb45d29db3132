/// The USB devices Linux's btusb hands to btintel's bootloader setup (`BTUSB_INTEL_COMBINED`, vendor 0x8087):
/// 0x0025 ThP (9260/9560), 0x0026 HrP (AX201), 0x0029 CcP (AX200), 0x0032 TyP (AX210), 0x0033 (AX211),
/// 0x0A2B (8260/8265), 0x0AAA (9460/9560) — the IDs `FirmwareAdvisor` names as needing firmware.
package enum IntelUSBIDs {
    package static let intelVendor: UInt16 = 0x8087

    /// Whether btusb would set this Bluetooth dongle up with btintel's firmware download.
    package static func contains(vendor: UInt16, product: UInt16) -> Bool {
        vendor == intelVendor && FirmwareAdvisor.intelBootloaderIDs[product] != nil
    }
}
