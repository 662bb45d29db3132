import CLibUSB

/// One libusb context (`libusb_context *`), exited (`libusb_exit`) when the last reference to it goes:
/// its owner and every `LibUSBDevice` listed from it hold one.
///
/// `@unchecked Sendable`: `raw` is a C handle Swift cannot check. libusb's context functions are
/// thread-safe; what must not run concurrently (handling one context's events from two threads) is the
/// owner's rule: DeviceControl runs every call on one serial queue, a USB transport handles its events on
/// the host's loop or on its own thread.
package final class LibUSBContext: @unchecked Sendable {
    /// The `libusb_context *`, for libusb calls this wrapper does not make.
    package let raw: OpaquePointer

    private init(raw: OpaquePointer) { self.raw = raw }

    deinit { libusb_exit(raw) }

    /// A new context (`libusb_init`); the error says why libusb cannot see USB here.
    package static func open() throws(LibUSBError) -> LibUSBContext {
        var context: OpaquePointer?
        let code = libusb_init(&context)
        guard code == 0, let context else {
            throw LibUSBError(code: code, message: "libusb could not start (\(LibUSBError.name(code))): this system shows no USB "
                                                   + "(no usbfs at /dev/bus/usb, or /sys is not mounted)")
        }
        return LibUSBContext(raw: context)
    }

    /// True when this libusb can deliver hotplug events (on Linux they also need a running udev).
    package var hasHotplug: Bool { libusb_has_capability(UInt32(LIBUSB_CAP_HAS_HOTPLUG.rawValue)) != 0 }

    /// Every device on every bus now (`libusb_get_device_list`), described without opening any.
    package func devices() throws(LibUSBError) -> [LibUSBDevice] {
        var list: UnsafeMutablePointer<OpaquePointer?>?
        let count = libusb_get_device_list(raw, &list)
        guard count >= 0, let list else {
            let code = Int32(truncatingIfNeeded: count)
            throw LibUSBError(code: code, message: "libusb could not list USB devices: \(LibUSBError.name(code))")
        }
        // Each device takes its own reference before the list (and the list's references) is freed.
        defer { libusb_free_device_list(list, 1) }
        return (0..<count).compactMap { index in list[index].map { LibUSBDevice(referencing: $0, in: self) } }
    }
}
