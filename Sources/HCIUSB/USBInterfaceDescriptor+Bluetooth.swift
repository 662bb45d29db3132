import LibUSB

extension USBInterfaceDescriptor {
    /// Class E0 (Wireless Controller), subclass 01 (RF Controller), protocol 01 (Bluetooth Programming Interface).
    package var isBluetooth: Bool { USBBluetoothClassifier.isBluetoothClass(interfaceClass, subclass: subclass, protocolCode: protocolCode) }
}
