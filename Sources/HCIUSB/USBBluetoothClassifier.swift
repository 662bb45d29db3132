import LibUSB

/// Which USB devices are Bluetooth controllers: the one place that decides it.
///
/// A device is one when it declares class E0/01/01 (Wireless Controller / RF Controller / Bluetooth
/// Programming Interface) on the device or on an interface, or when it is a well-known dongle that hides
/// behind a vendor-specific class. `usb:N` counts only the devices that declare the class (Bumble's rule);
/// `hil usb`, `hil adapters` and `hil doctor` list the known dongles too.
package enum USBBluetoothClassifier {
    /// Well-known USB Bluetooth controllers by ID (`0a12:0001`, as `USBHex.id` writes it), with their names.
    package static let knownDongles: [String: String] = [
        "0a12:0001": "CSR8510 A10 (Cambridge Silicon Radio)",
        "0a5c:21e8": "Broadcom BCM20702A0",
        "0b05:17cb": "ASUS USB-BT400 (Broadcom BCM20702A0)",
        "050d:065a": "Belkin F8T065 (Broadcom BCM20702)",
        "0bda:8771": "Realtek RTL8761B",
        "2357:0604": "TP-Link UB500 (Realtek RTL8761B)",
        "0b05:190e": "ASUS USB-BT500 (Realtek RTL8761B)",
        "8087:0a2a": "Intel Wireless 7265",
        "8087:0a2b": "Intel Wireless 8260/8265",
        "8087:0aaa": "Intel Wireless-AC 9460/9560",
        "8087:0025": "Intel Wireless-AC 9260",
        "8087:0026": "Intel AX201",
        "8087:0029": "Intel AX200",
        "8087:0032": "Intel AX210",
        "2fe3:000b": "Zephyr hci_usb (e.g. nRF52840 Dongle)",
    ]

    /// True for class E0 (Wireless Controller), subclass 01 (RF Controller), protocol 01 (Bluetooth
    /// Programming Interface), on a device or an interface.
    package static func isBluetoothClass(_ classCode: UInt8, subclass: UInt8, protocolCode: UInt8) -> Bool {
        classCode == 0xE0 && subclass == 0x01 && protocolCode == 0x01
    }

    /// The name of a well-known dongle with this ID, or nil.
    package static func knownDongle(vendor: UInt16, product: UInt16) -> String? { knownDongles[USBHex.id(vendor, product)] }

    /// Why a device is a Bluetooth controller, or nil when it is not one: its device class first, then the
    /// first of `interfaces` (in the order given) of the class, then the table of known dongles.
    package static func classify(vendor: UInt16, product: UInt16, deviceClass: UInt8, deviceSubclass: UInt8, deviceProtocol: UInt8,
                                interfaces: [USBInterfaceDescriptor]) -> Evidence? {
        if isBluetoothClass(deviceClass, subclass: deviceSubclass, protocolCode: deviceProtocol) { return .deviceClass }
        if let interface = interfaces.first(where: \.isBluetooth) { return .interfaceClass(number: interface.number) }
        return knownDongle(vendor: vendor, product: product).map(Evidence.knownDongle)
    }
}
