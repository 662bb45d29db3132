import CLibUSB
import Foundation

/// Thin synchronous helpers over libusb, called only inside `USBContext.run` (on the libusb queue).
enum LibUSB {
    /// `LIBUSB_ERROR_ACCESS`.
    static func errorName(_ code: Int32) -> String { String(cString: libusb_error_name(code)) }

    /// Default timeout of one control transfer: every transfer has a deadline.
    static let controlTimeoutMilliseconds: UInt32 = 2000

    /// Calls `body` with libusb's current device list, freed afterwards.
    static func withDeviceList<T>(_ context: OpaquePointer, _ body: ([OpaquePointer]) throws -> T) throws -> T {
        var list: UnsafeMutablePointer<OpaquePointer?>?
        let count = libusb_get_device_list(context, &list)
        guard count >= 0, let list else {
            throw PowerSwitchError(.deviceFailure, "libusb could not list USB devices: \(errorName(Int32(truncatingIfNeeded: count)))")
        }
        defer { libusb_free_device_list(list, 1) }
        var devices: [OpaquePointer] = []
        for index in 0..<count { if let device = list[index] { devices.append(device) } }
        return try body(devices)
    }

    /// The location (`bus-port.port`) of a libusb device.
    static func location(of device: OpaquePointer) -> USBLocation? {
        var numbers = [UInt8](repeating: 0, count: 8)
        let count = numbers.withUnsafeMutableBufferPointer { libusb_get_port_numbers(device, $0.baseAddress, 8) }
        guard count >= 0 else { return nil }
        return USBLocation(bus: Int(libusb_get_bus_number(device)), ports: numbers.prefix(Int(count)).map(Int.init))
    }

    static func deviceDescriptor(_ device: OpaquePointer) -> libusb_device_descriptor? {
        var descriptor = libusb_device_descriptor()
        guard libusb_get_device_descriptor(device, &descriptor) == 0 else { return nil }
        return descriptor
    }

    static func id(of descriptor: libusb_device_descriptor) -> USBID {
        USBID(vendor: descriptor.idVendor, product: descriptor.idProduct)
    }

    static func node(of device: OpaquePointer) -> String {
        PermissionAdvice.deviceNode(bus: Int(libusb_get_bus_number(device)), address: Int(libusb_get_device_address(device)))
    }

    /// Opens a device; a refusal names the node and the udev rule that fixes it.
    static func open(_ device: OpaquePointer, what: String) throws -> OpaquePointer {
        var handle: OpaquePointer?
        let code = libusb_open(device, &handle)
        let id = deviceDescriptor(device).map(id(of:)) ?? USBID(vendor: 0, product: 0)
        guard code == 0, let handle else {
            if code == LIBUSB_ERROR_ACCESS.rawValue {
                throw PowerSwitchError(.permissionDenied, PermissionAdvice.usbDevice(node: node(of: device), id: id, what: what))
            }
            if code == LIBUSB_ERROR_NO_DEVICE.rawValue {
                throw PowerSwitchError(.notFound, "\(what) (\(id)) left the bus while being opened")
            }
            throw PowerSwitchError(.deviceFailure, "cannot open \(node(of: device)) (\(what), \(id)): \(errorName(code))")
        }
        return handle
    }

    /// One control transfer. For IN transfers returns the bytes received; for OUT, `data` is sent.
    static func control(_ handle: OpaquePointer, _ setup: SetupPacket, data: [UInt8] = [], what: String,
                        timeoutMilliseconds: UInt32 = controlTimeoutMilliseconds) throws -> [UInt8] {
        var buffer = setup.isIn ? [UInt8](repeating: 0, count: Int(setup.length)) : data
        if buffer.isEmpty { buffer = [0] }
        let length = setup.isIn ? setup.length : UInt16(clamping: data.count)
        let code = buffer.withUnsafeMutableBufferPointer {
            libusb_control_transfer(handle, setup.requestType, setup.request, setup.value, setup.index,
                                    $0.baseAddress, length, timeoutMilliseconds)
        }
        guard code >= 0 else {
            if code == LIBUSB_ERROR_TIMEOUT.rawValue {
                throw PowerSwitchError(.timeout, "\(what) (setup \(setup)) got no answer within \(timeoutMilliseconds) ms")
            }
            if code == LIBUSB_ERROR_ACCESS.rawValue {
                throw PowerSwitchError(.permissionDenied, "\(what) (setup \(setup)) was refused: LIBUSB_ERROR_ACCESS")
            }
            throw PowerSwitchError(.deviceFailure, "\(what) (setup \(setup)) failed: \(errorName(code))")
        }
        return setup.isIn ? Array(buffer.prefix(Int(code))) : []
    }

    /// An ASCII string descriptor, or nil.
    static func string(_ handle: OpaquePointer, index: UInt8) -> String? {
        guard index != 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBufferPointer {
            libusb_get_string_descriptor_ascii(handle, index, $0.baseAddress, 256)
        }
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(Int(count)), as: UTF8.self).trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "\0")))
    }

    /// The interfaces (altsetting 0) of the active configuration, read without opening the device.
    static func interfaces(of device: OpaquePointer) -> [USBInterfaceClass] {
        var config: UnsafeMutablePointer<libusb_config_descriptor>?
        guard libusb_get_active_config_descriptor(device, &config) == 0, let config else { return [] }
        defer { libusb_free_config_descriptor(config) }
        var result: [USBInterfaceClass] = []
        for index in 0..<Int(config.pointee.bNumInterfaces) {
            let interface = config.pointee.interface[index]
            guard interface.num_altsetting > 0, let alt = interface.altsetting else { continue }
            var endpoints: [USBEndpoint] = []
            for e in 0..<Int(alt.pointee.bNumEndpoints) {
                if let endpoint = alt.pointee.endpoint?[e] {
                    endpoints.append(USBEndpoint(address: endpoint.bEndpointAddress, attributes: endpoint.bmAttributes,
                                                 maxPacketSize: Int(endpoint.wMaxPacketSize)))
                }
            }
            result.append(USBInterfaceClass(number: Int(alt.pointee.bInterfaceNumber), classCode: alt.pointee.bInterfaceClass,
                                            subclass: alt.pointee.bInterfaceSubClass, protocolCode: alt.pointee.bInterfaceProtocol,
                                            endpoints: endpoints))
        }
        return result
    }
}
