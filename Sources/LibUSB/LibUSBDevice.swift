import CLibUSB

/// One USB device as libusb lists it (`libusb_device *`), referenced (`libusb_ref_device`) for as long as
/// this object lives, which keeps its context open too. Reading these facts needs no open handle and does
/// no I/O: libusb answers from what it cached at enumeration.
package final class LibUSBDevice {
    /// The `libusb_device *`, for `libusb_open` and the calls this wrapper does not make.
    package let raw: OpaquePointer
    /// The context the device was listed from (kept open while the device is referenced).
    package let context: LibUSBContext

    init(referencing raw: OpaquePointer, in context: LibUSBContext) {
        libusb_ref_device(raw)
        self.raw = raw
        self.context = context
    }

    deinit { libusb_unref_device(raw) }

    /// `libusb_get_bus_number`.
    package var busNumber: Int { Int(libusb_get_bus_number(raw)) }

    /// The device number on its bus (`libusb_get_device_address`); it changes on every enumeration.
    package var address: Int { Int(libusb_get_device_address(raw)) }

    /// The hub ports from the root hub down to the device (`libusb_get_port_numbers`): empty for a root
    /// hub, nil when libusb cannot say.
    package var portNumbers: [Int]? {
        var numbers = [UInt8](repeating: 0, count: 8)
        let count = numbers.withUnsafeMutableBufferPointer { libusb_get_port_numbers(raw, $0.baseAddress, 8) }
        guard count >= 0 else { return nil }
        return numbers.prefix(Int(count)).map(Int.init)
    }

    /// The device descriptor (`libusb_get_device_descriptor`), or nil when libusb has none.
    package var descriptor: libusb_device_descriptor? {
        var descriptor = libusb_device_descriptor()
        guard libusb_get_device_descriptor(raw, &descriptor) == 0 else { return nil }
        return descriptor
    }

    /// The negotiated speed as libusb numbers it (`libusb_get_device_speed`: 1 low … 5 SuperSpeed+, 0 unknown).
    package var speed: Int32 { libusb_get_device_speed(raw) }

    /// Its usbfs node, the file libusb opens: `/dev/bus/usb/001/004`.
    package var node: String { Self.node(bus: busNumber, address: address) }

    /// The usbfs node of device `address` on bus `bus`: `/dev/bus/usb/001/004`.
    package static func node(bus: Int, address: Int) -> String {
        func three(_ n: Int) -> String { let t = String(n); return String(repeating: "0", count: max(0, 3 - t.count)) + t }
        return "/dev/bus/usb/\(three(bus))/\(three(address))"
    }
}
