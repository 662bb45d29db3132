import DeviceControl
import HCIUSB
import LibUSB

extension USBDeviceMarking {
    /// The Bluetooth adapters of a USB tree, as HCIUSB's classifier tells them (class E0/01/01 on the
    /// device or an interface, or a known dongle): what `hil usb` marks with ◆ and lists under the tree.
    package static let bluetoothAdapters = USBDeviceMarking(noun: "Bluetooth adapter", plural: "Bluetooth adapters",
                                                           jsonKey: "bluetoothAdapter") { device in
        let interfaces = device.interfaces.map {
            USBInterfaceDescriptor(number: UInt8(truncatingIfNeeded: $0.number), interfaceClass: $0.classCode, subclass: $0.subclass,
                                   protocolCode: $0.protocolCode, endpoints: [])
        }
        return USBBluetoothClassifier.classify(vendor: device.id.vendor, product: device.id.product, deviceClass: device.deviceClass,
                                               deviceSubclass: device.deviceSubclass, deviceProtocol: device.deviceProtocol,
                                               interfaces: interfaces)?.description
    }
}
