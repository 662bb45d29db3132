import DeviceControl
import HCIUSB

/// A USB Bluetooth adapter as sysfs shows it, read without opening the device.
package struct SysfsUSBAdapter: Sendable, Hashable {
    package var location: String
    package var vendor: UInt16
    package var product: UInt16
    package var serial: String?
    package var productName: String?
    package var bus: Int
    package var address: Int
    /// The driver bound to its Bluetooth interface (or first interface): `btusb`, or nil.
    package var driver: String?
    /// Declares class E0/01/01 (device or interface); false for a known dongle with a vendor class.
    package var declaresBluetooth: Bool

    package var id: String { USBID(vendor: vendor, product: product).description }
    package var node: String { PermissionAdvice.deviceNode(bus: bus, address: address) }
}

/// A kernel Bluetooth adapter (hciN) as sysfs shows it.
package struct SysfsHCIAdapter: Sendable, Hashable {
    package var name: String
    /// The USB location it sits on, if it is a USB adapter.
    package var usbLocation: String?
    package var driver: String?
}

extension DoctorEnvironment {
    /// Every USB device that is a Bluetooth adapter, as `USBBluetoothClassifier` decides: class E0/01/01 on
    /// the device or an interface, or a known dongle ID.
    package func usbBluetoothAdapters() -> [SysfsUSBAdapter] {
        let base = "/sys/bus/usb/devices"
        var result: [SysfsUSBAdapter] = []
        let names = list(base)
        for name in names where !name.contains(":") && !name.hasPrefix("usb") {
            let directory = "\(base)/\(name)"
            guard let vendorText = read("\(directory)/idVendor"), let vendor = UInt16(vendorText, radix: 16),
                  let productText = read("\(directory)/idProduct"), let product = UInt16(productText, radix: 16) else { continue }
            let deviceBT = isBluetoothClass(directory, prefix: "bDevice")
            var interfaceBT: String?
            var firstInterface: String?
            for interface in names where interface.hasPrefix(name + ":") {
                let path = "\(base)/\(interface)"
                if firstInterface == nil { firstInterface = interface }
                if interfaceBT == nil, isBluetoothClass(path, prefix: "bInterface") { interfaceBT = interface }
            }
            let known = USBBluetoothClassifier.knownDongle(vendor: vendor, product: product) != nil
            guard deviceBT || interfaceBT != nil || known else { continue }
            let driverInterface = interfaceBT ?? firstInterface
            let driver = driverInterface.flatMap { link("\(base)/\($0)/driver") }.flatMap { $0.split(separator: "/").last.map(String.init) }
            result.append(SysfsUSBAdapter(
                location: name, vendor: vendor, product: product, serial: read("\(directory)/serial"),
                productName: read("\(directory)/product"), bus: Int(read("\(directory)/busnum") ?? "") ?? 0,
                address: Int(read("\(directory)/devnum") ?? "") ?? 0, driver: driver, declaresBluetooth: deviceBT || interfaceBT != nil))
        }
        return result.sorted { a, b in
            if let left = USBLocation(a.location), let right = USBLocation(b.location) { return left < right }
            return a.location < b.location
        }
    }

    /// The class triple sysfs shows in `directory` (`bDeviceClass`, … or `bInterfaceClass`, …, in hex) is
    /// E0/01/01.
    private func isBluetoothClass(_ directory: String, prefix: String) -> Bool {
        func byte(_ name: String) -> UInt8? { read("\(directory)/\(prefix)\(name)").flatMap { UInt8($0, radix: 16) } }
        guard let classCode = byte("Class"), let subclass = byte("SubClass"), let protocolCode = byte("Protocol") else { return false }
        return USBBluetoothClassifier.isBluetoothClass(classCode, subclass: subclass, protocolCode: protocolCode)
    }

    /// hci0, hci1, … from /sys/class/bluetooth, with the USB device behind each.
    package func hciAdapters() -> [SysfsHCIAdapter] {
        list("/sys/class/bluetooth").filter { $0.hasPrefix("hci") && !$0.contains(":") }.map { name in
            let device = link("/sys/class/bluetooth/\(name)/device")
            let last = device?.split(separator: "/").last.map(String.init)
            let location = last.flatMap { text -> String? in
                guard let colon = text.firstIndex(of: ":"), text.contains("-") else { return nil }
                return String(text[..<colon])
            }
            let driver = link("/sys/class/bluetooth/\(name)/device/driver").flatMap { $0.split(separator: "/").last.map(String.init) }
            return SysfsHCIAdapter(name: name, usbLocation: location, driver: driver)
        }
    }
}
