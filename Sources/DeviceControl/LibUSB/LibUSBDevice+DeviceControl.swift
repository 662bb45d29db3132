import LibUSB

extension LibUSBDevice {
    /// Its location (`bus-port.port`), or nil when libusb cannot give its port path.
    var location: USBLocation? { portNumbers.flatMap { USBLocation(bus: busNumber, ports: $0) } }

    /// Its vendor and product ID, or nil when libusb has no device descriptor.
    var id: USBID? { descriptor.map { USBID(vendor: $0.idVendor, product: $0.idProduct) } }

    /// The interfaces (altsetting 0) of the active configuration, read without opening the device.
    var interfaceClasses: [USBInterfaceClass] {
        var seen: Set<UInt8> = []
        return (activeConfiguration()?.interfaces ?? []).compactMap { setting in
            // The first setting listed for each interface is its altsetting 0.
            guard seen.insert(setting.number).inserted else { return nil }
            return USBInterfaceClass(number: Int(setting.number), classCode: setting.interfaceClass, subclass: setting.subclass,
                                     protocolCode: setting.protocolCode,
                                     endpoints: setting.endpoints.map { USBEndpoint(address: $0.address, attributes: $0.attributes,
                                                                                    maxPacketSize: Int($0.maxPacketSize)) })
        }
    }
}
