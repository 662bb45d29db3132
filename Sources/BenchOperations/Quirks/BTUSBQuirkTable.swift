/// The USB IDs Linux's btusb gives quirks that matter to which controller `hil` opens and how it trusts it
/// (drivers/bluetooth/btusb.c, `quirks_table`, and `btusb_table` for 8087:0a5a; each row carries btusb's comment above its entry). Only
/// rows with `BTUSB_CSR`, `BTUSB_IGNORE`, `BTUSB_BROKEN_ISOC` and `BTUSB_WRONG_SCO_MTU` are kept; the rows
/// that pick a vendor's firmware loader (`BTUSB_REALTEK`, `BTUSB_INTEL_*`, `BTUSB_ATH3012`, …) are the
/// firmware stage's (`RealtekUSBIDs`). `BTUSBQuirk.effect` says what each flag does here.
package enum BTUSBQuirkTable {
    /// One row: a USB ID, its flags, and btusb's comment naming the device.
    package struct Entry: Sendable, Equatable {
        package let vendor: UInt16
        package let product: UInt16
        package let quirks: [BTUSBQuirk]
        package let device: String
    }

    /// The rows, in btusb's order.
    package static let entries: [Entry] = [
        Entry(vendor: 0x0A12, product: 0x0001, quirks: [.csr], device: "CSR BlueCore devices (CSR8510 A10 and its clones)"),
        Entry(vendor: 0x8087, product: 0x07DA, quirks: [.csr], device: "Intel Bluetooth device with a CSR core"),
        Entry(vendor: 0x0A5C, product: 0x2033, quirks: [.ignore], device: "Broadcom BCM2033 without firmware"),
        Entry(vendor: 0x0489, product: 0xE027, quirks: [.ignore], device: "Atheros 3011 with sflash firmware"),
        Entry(vendor: 0x0489, product: 0xE03D, quirks: [.ignore], device: "Atheros 3011 with sflash firmware"),
        Entry(vendor: 0x04F2, product: 0xAFF1, quirks: [.ignore], device: "Atheros 3011 with sflash firmware"),
        Entry(vendor: 0x0930, product: 0x0215, quirks: [.ignore], device: "Atheros 3011 with sflash firmware"),
        Entry(vendor: 0x0CF3, product: 0x3002, quirks: [.ignore], device: "Atheros 3011 with sflash firmware"),
        Entry(vendor: 0x0CF3, product: 0xE019, quirks: [.ignore], device: "Atheros 3011 with sflash firmware"),
        Entry(vendor: 0x13D3, product: 0x3304, quirks: [.ignore], device: "Atheros 3011 with sflash firmware"),
        Entry(vendor: 0x03F0, product: 0x311D, quirks: [.ignore], device: "Atheros AR9285 Malbec with sflash firmware"),
        Entry(vendor: 0x0489, product: 0xE02C, quirks: [.ignore], device: "Atheros AR5BBU12 with sflash firmware"),
        Entry(vendor: 0x0A5C, product: 0x200A, quirks: [.wrongSCOMTU], device: "Broadcom BCM2035"),
        Entry(vendor: 0x0A5C, product: 0x2035, quirks: [.wrongSCOMTU], device: "Broadcom BCM2035"),
        Entry(vendor: 0x0A5C, product: 0x2039, quirks: [.wrongSCOMTU], device: "Broadcom BCM2045"),
        Entry(vendor: 0x0A5C, product: 0x2101, quirks: [.wrongSCOMTU], device: "Broadcom BCM2045"),
        Entry(vendor: 0x0A5C, product: 0x201E, quirks: [.wrongSCOMTU], device: "IBM/Lenovo ThinkPad with Broadcom chip"),
        Entry(vendor: 0x0A5C, product: 0x2110, quirks: [.wrongSCOMTU], device: "IBM/Lenovo ThinkPad with Broadcom chip"),
        Entry(vendor: 0x03F0, product: 0x171D, quirks: [.wrongSCOMTU], device: "HP laptop with Broadcom chip"),
        Entry(vendor: 0x413C, product: 0x8126, quirks: [.wrongSCOMTU], device: "Dell laptop with Broadcom chip"),
        Entry(vendor: 0x8087, product: 0x0A5A, quirks: [.brokenIsochronous], device: "Intel Bluetooth USB Bootloader (RAM module)"),
    ]

    /// The row for a USB ID, if btusb has one.
    package static func entry(vendor: UInt16, product: UInt16) -> Entry? {
        entries.first { $0.vendor == vendor && $0.product == product }
    }
}
