/// The USB devices Linux's btusb hands to btrtl (`BTUSB_REALTEK`): every Bluetooth-class device of Realtek's
/// vendor ID 0x0BDA (btusb matches `USB_VENDOR_AND_INTERFACE_INFO(0x0bda, 0xe0, 0x01, 0x01)`), and the other
/// vendors' Realtek dongles btusb lists by ID (as Bumble's `RTK_USB_PRODUCTS` repeats them).
package enum RealtekUSBIDs {
    package static let realtekVendor: UInt16 = 0x0BDA

    /// Other vendors' Realtek-based devices, `vendor << 16 | product` (e.g. 0x2357_0604: TP-Link UB500).
    static let others: Set<UInt32> = [
        0x0489_E085, 0x0489_E08B, 0x04C5_161F, 0x04C5_165C, 0x04C5_1675, 0x04CA_4005, 0x04CA_4006, 0x04CA_4007,
        0x04F2_B49F, 0x0930_021D, 0x0B05_17DC, 0x0B05_185C, 0x0B05_18EF, 0x0B05_190E, 0x0B05_1BF6, 0x0CB5_C547,
        0x0CB8_C549, 0x0CB8_C558, 0x0CB8_C559, 0x1358_C123, 0x13D3_3394, 0x13D3_3410, 0x13D3_3414, 0x13D3_3416,
        0x13D3_3458, 0x13D3_3459, 0x13D3_3461, 0x13D3_3462, 0x13D3_3494, 0x13D3_3526, 0x13D3_3529, 0x13D3_3548,
        0x13D3_3549, 0x13D3_3553, 0x13D3_3555, 0x13D3_3571, 0x13D3_3586, 0x13D3_3587, 0x13D3_3592, 0x2230_0016,
        0x2357_0604, 0x2550_8761, 0x2B89_8761, 0x2C0A_8761, 0x2FF8_3051, 0x2FF8_B011, 0x7392_A611, 0x7392_C611,
        0x7392_F611,
    ]

    /// Whether btusb would treat this Bluetooth dongle as Realtek's.
    package static func contains(vendor: UInt16, product: UInt16) -> Bool {
        vendor == realtekVendor || others.contains(UInt32(vendor) << 16 | UInt32(product))
    }
}
