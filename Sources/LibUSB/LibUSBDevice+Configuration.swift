import CLibUSB

extension LibUSBDevice {
    /// The active configuration (`libusb_get_active_config_descriptor`, from libusb's cache), with every
    /// alternate setting of every interface; nil when the device is unconfigured or libusb has none.
    package func activeConfiguration() -> USBConfigurationDescriptor? {
        var config: UnsafeMutablePointer<libusb_config_descriptor>?
        guard libusb_get_active_config_descriptor(raw, &config) == 0, let config else { return nil }
        defer { libusb_free_config_descriptor(config) }
        return Self.configuration(config.pointee)
    }

    /// Configuration number `index` (0-based, `libusb_get_config_descriptor`), whether active or not.
    package func configuration(at index: UInt8) -> USBConfigurationDescriptor? {
        var config: UnsafeMutablePointer<libusb_config_descriptor>?
        guard libusb_get_config_descriptor(raw, index, &config) == 0, let config else { return nil }
        defer { libusb_free_config_descriptor(config) }
        return Self.configuration(config.pointee)
    }

    private static func configuration(_ config: libusb_config_descriptor) -> USBConfigurationDescriptor {
        var interfaces: [USBInterfaceDescriptor] = []
        for index in 0..<Int(config.bNumInterfaces) {
            let interface = config.interface[index]
            guard let settings = interface.altsetting else { continue }
            for alt in 0..<Int(interface.num_altsetting) {
                let setting = settings[alt]
                var endpoints: [USBEndpointDescriptor] = []
                for e in 0..<Int(setting.bNumEndpoints) {
                    if let endpoint = setting.endpoint?[e] {
                        endpoints.append(USBEndpointDescriptor(address: endpoint.bEndpointAddress, attributes: endpoint.bmAttributes,
                                                               maxPacketSize: endpoint.wMaxPacketSize, interval: endpoint.bInterval))
                    }
                }
                interfaces.append(USBInterfaceDescriptor(number: setting.bInterfaceNumber, alternate: setting.bAlternateSetting,
                                                         interfaceClass: setting.bInterfaceClass, subclass: setting.bInterfaceSubClass,
                                                         protocolCode: setting.bInterfaceProtocol, endpoints: endpoints))
            }
        }
        return USBConfigurationDescriptor(value: config.bConfigurationValue, interfaces: interfaces)
    }
}
