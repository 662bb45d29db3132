import CLibUSB
import Foundation
import HCI

/// One libusb context and, once opened, one device handle.
///
/// `@unchecked Sendable`: it only holds two C pointers (`libusb_context *`, `libusb_device_handle *`)
/// that Swift cannot check. libusb's calls on them are thread-safe; the pointers are set before the
/// session is shared and cleared only by `finish()`, which the owning transport calls once, after its
/// event thread has been joined and no transfer is in flight.
final class LibUSBSession: @unchecked Sendable {
    let context: OpaquePointer
    private(set) var handle: OpaquePointer?
    private var claimed: Int32?

    private init(context: OpaquePointer) { self.context = context }

    /// A new libusb context; `.unsupported` saying why there is no USB here.
    static func make(moniker: String) throws(HCITransportError) -> LibUSBSession {
        var context: OpaquePointer?
        let code = libusb_init(&context)
        guard code == 0, let context else {
            throw HCITransportError(.unsupported, "\(moniker): libusb could not start (\(LibUSBNames.error(code))): this system shows no USB (no usbfs at /dev/bus/usb, or /sys is not mounted)")
        }
        return LibUSBSession(context: context)
    }

    /// Every device on every bus, described without opening any.
    func candidates(sysfs: String = "/sys") -> [(device: OpaquePointer, candidate: USBCandidate, configuration: USBConfigurationDescriptor?)] {
        var list: UnsafeMutablePointer<OpaquePointer?>?
        let count = libusb_get_device_list(context, &list)
        guard count > 0, let list else { return [] }
        var result: [(OpaquePointer, USBCandidate, USBConfigurationDescriptor?)] = []
        for index in 0..<count {
            guard let device = list[index] else { continue }
            var descriptor = libusb_device_descriptor()
            guard libusb_get_device_descriptor(device, &descriptor) == 0 else { continue }
            var numbers = [UInt8](repeating: 0, count: 8)
            let depth = numbers.withUnsafeMutableBufferPointer { libusb_get_port_numbers(device, $0.baseAddress, 8) }
            guard depth >= 0 else { continue }
            let ports = numbers.prefix(Int(depth)).map(Int.init)
            let bus = Int(libusb_get_bus_number(device))
            let configuration = Self.activeConfiguration(device)
            let declares = descriptor.bDeviceClass == 0xE0 && descriptor.bDeviceSubClass == 0x01 && descriptor.bDeviceProtocol == 0x01
            let location = ports.isEmpty ? "usb\(bus)" : "\(bus)-" + ports.map(String.init).joined(separator: ".")
            let serial = (try? String(contentsOfFile: "\(sysfs)/bus/usb/devices/\(location)/serial", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let candidate = USBCandidate(bus: bus, ports: ports, vendor: descriptor.idVendor, product: descriptor.idProduct,
                                         serial: serial, isBluetooth: declares || (configuration?.interfaces.contains(where: \.isBluetooth) ?? false))
            libusb_ref_device(device)
            result.append((device, candidate, configuration))
        }
        libusb_free_device_list(list, 1)
        return result
    }

    /// The active configuration (or the first one when the device is unconfigured), from libusb's cache.
    static func activeConfiguration(_ device: OpaquePointer) -> USBConfigurationDescriptor? {
        var config: UnsafeMutablePointer<libusb_config_descriptor>?
        if libusb_get_active_config_descriptor(device, &config) != 0 {
            guard libusb_get_config_descriptor(device, 0, &config) == 0 else { return nil }
        }
        guard let config else { return nil }
        defer { libusb_free_config_descriptor(config) }
        var interfaces: [USBInterfaceDescriptor] = []
        for index in 0..<Int(config.pointee.bNumInterfaces) {
            let interface = config.pointee.interface[index]
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
        return USBConfigurationDescriptor(value: config.pointee.bConfigurationValue, interfaces: interfaces)
    }

    /// Opens `device` and claims `interface`, detaching the kernel driver (btusb) if one is bound;
    /// libusb re-attaches it when the interface is released. Returns the driver that was detached.
    func open(_ device: OpaquePointer, candidate: USBCandidate, endpoints: HCIEndpoints, moniker: String) throws(HCITransportError) -> String? {
        var opened: OpaquePointer?
        let code = libusb_open(device, &opened)
        guard code == 0, let opened else {
            throw USBAdvice.openFailed(code, candidate: candidate, device: device, moniker: moniker)
        }
        let interface = Int32(endpoints.interface)
        let active = libusb_kernel_driver_active(opened, interface)
        let driver = active == 1 ? Self.driverName(candidate: candidate, interface: endpoints.interface) ?? "a kernel driver" : nil
        _ = libusb_set_auto_detach_kernel_driver(opened, 1)
        let claim = libusb_claim_interface(opened, interface)
        guard claim == 0 else {
            libusb_close(opened)
            throw USBAdvice.claimFailed(claim, candidate: candidate, interface: endpoints.interface, driver: driver, moniker: moniker)
        }
        if endpoints.alternate != 0 {
            let alt = libusb_set_interface_alt_setting(opened, interface, Int32(endpoints.alternate))
            if alt != 0 {
                libusb_release_interface(opened, interface)
                libusb_close(opened)
                throw HCITransportError(.io, "\(moniker): cannot select alternate setting \(endpoints.alternate) of interface \(interface): \(LibUSBNames.error(alt))")
            }
        }
        handle = opened
        claimed = interface
        return driver
    }

    /// The driver sysfs shows on `interface` of the device (`btusb`), if any.
    static func driverName(candidate: USBCandidate, interface: UInt8, sysfs: String = "/sys") -> String? {
        let path = "\(sysfs)/bus/usb/devices/\(candidate.location):1.\(interface)/driver"
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else { return nil }
        return target.split(separator: "/").last.map(String.init)
    }

    /// Releases the interface (libusb re-attaches the kernel driver it detached), closes the handle and
    /// the context. Call once, after every transfer has completed and the event thread has ended.
    func finish() {
        if let handle {
            if let claimed { libusb_release_interface(handle, claimed) }
            libusb_close(handle)
        }
        handle = nil
        claimed = nil
        libusb_exit(context)
    }
}

/// libusb's names for its error codes and transfer statuses.
enum LibUSBNames {
    static func error(_ code: Int32) -> String { String(cString: libusb_error_name(code)) }

    static func status(_ status: libusb_transfer_status) -> String {
        switch status {
        case LIBUSB_TRANSFER_COMPLETED: "LIBUSB_TRANSFER_COMPLETED"
        case LIBUSB_TRANSFER_ERROR: "LIBUSB_TRANSFER_ERROR"
        case LIBUSB_TRANSFER_TIMED_OUT: "LIBUSB_TRANSFER_TIMED_OUT"
        case LIBUSB_TRANSFER_CANCELLED: "LIBUSB_TRANSFER_CANCELLED"
        case LIBUSB_TRANSFER_STALL: "LIBUSB_TRANSFER_STALL"
        case LIBUSB_TRANSFER_NO_DEVICE: "LIBUSB_TRANSFER_NO_DEVICE"
        case LIBUSB_TRANSFER_OVERFLOW: "LIBUSB_TRANSFER_OVERFLOW"
        default: "libusb transfer status \(status.rawValue)"
        }
    }
}
