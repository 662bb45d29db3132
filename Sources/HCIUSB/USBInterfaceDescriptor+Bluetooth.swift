import LibUSB

extension USBInterfaceDescriptor {
    /// Class E0 (Wireless Controller), subclass 01 (RF Controller), protocol 01 (Bluetooth Programming Interface).
    public var isBluetooth: Bool { interfaceClass == 0xE0 && subclass == 0x01 && protocolCode == 0x01 }
}
