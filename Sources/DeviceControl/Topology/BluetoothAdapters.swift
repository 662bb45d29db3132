/// Finds Bluetooth adapters among USB devices: by class E0/01/01 (Wireless Controller / RF /
/// Bluetooth Programming Interface, on the device or an interface) and by a table of well-known dongles,
/// for the ones that hide behind a vendor-specific class.
public enum BluetoothAdapters {
    /// Well-known USB Bluetooth controllers by ID.
    public static let knownDongles: [USBID: String] = [
        USBID(vendor: 0x0A12, product: 0x0001): "CSR8510 A10 (Cambridge Silicon Radio)",
        USBID(vendor: 0x0A5C, product: 0x21E8): "Broadcom BCM20702A0",
        USBID(vendor: 0x0B05, product: 0x17CB): "ASUS USB-BT400 (Broadcom BCM20702A0)",
        USBID(vendor: 0x050D, product: 0x065A): "Belkin F8T065 (Broadcom BCM20702)",
        USBID(vendor: 0x0BDA, product: 0x8771): "Realtek RTL8761B",
        USBID(vendor: 0x2357, product: 0x0604): "TP-Link UB500 (Realtek RTL8761B)",
        USBID(vendor: 0x0B05, product: 0x190E): "ASUS USB-BT500 (Realtek RTL8761B)",
        USBID(vendor: 0x8087, product: 0x0A2A): "Intel Wireless 7265",
        USBID(vendor: 0x8087, product: 0x0A2B): "Intel Wireless 8260/8265",
        USBID(vendor: 0x8087, product: 0x0AAA): "Intel Wireless-AC 9460/9560",
        USBID(vendor: 0x8087, product: 0x0025): "Intel Wireless-AC 9260",
        USBID(vendor: 0x8087, product: 0x0026): "Intel AX201",
        USBID(vendor: 0x8087, product: 0x0029): "Intel AX200",
        USBID(vendor: 0x8087, product: 0x0032): "Intel AX210",
        USBID(vendor: 0x2FE3, product: 0x000B): "Zephyr hci_usb (e.g. nRF52840 Dongle)",
    ]

    /// Why `device` is a Bluetooth adapter, or nil when it is not one.
    public static func reason(for device: USBDeviceInfo) -> String? {
        if device.deviceClass == 0xE0, device.deviceSubclass == 0x01, device.deviceProtocol == 0x01 {
            return "class e0/01/01"
        }
        if let interface = device.interfaces.first(where: { $0.classCode == 0xE0 && $0.subclass == 0x01 && $0.protocolCode == 0x01 }) {
            return "interface \(interface.number) class e0/01/01"
        }
        if let name = knownDongles[device.id] { return name }
        return nil
    }
}
