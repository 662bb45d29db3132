import CLibUSB
import Dispatch

/// One libusb context and the serial queue every libusb call runs on.
///
/// libusb calls block (a control transfer waits up to its timeout), so they never run on the Swift
/// concurrency pool: `run` hops to this context's own dispatch queue and resumes the caller through a
/// continuation. Device handles are opened and closed inside one `run` body and never escape it.
final class USBContext: @unchecked Sendable {
    // @unchecked Sendable: `raw` is a libusb_context*, a C handle Swift cannot check. It is only passed to
    // libusb inside `run`, on `queue`, a serial queue, and freed in deinit when no `run` can be pending.
    private let raw: OpaquePointer
    private let queue = DispatchQueue(label: "DeviceControl.libusb")

    private init(raw: OpaquePointer) { self.raw = raw }

    deinit { libusb_exit(raw) }

    /// A new context, or `.unsupported` saying why libusb cannot see USB here.
    static func open() throws -> USBContext {
        var context: OpaquePointer?
        let code = libusb_init(&context)
        guard code == 0, let context else {
            throw PowerSwitchError(.unsupported,
                "libusb could not start (\(LibUSB.errorName(code))): this system shows no USB "
                + "(no usbfs at /dev/bus/usb, or /sys is not mounted)")
        }
        return USBContext(raw: context)
    }

    /// The process-wide context, opened on first use.
    static let shared: Result<USBContext, PowerSwitchError> = {
        do { return .success(try open()) } catch let error as PowerSwitchError {
            return .failure(error)
        } catch {
            return .failure(PowerSwitchError(.unsupported, "libusb could not start: \(error)"))
        }
    }()

    /// Runs `body` with the raw context on the libusb queue. `body` must not block without a timeout.
    func run<T: Sendable>(_ body: @escaping @Sendable (OpaquePointer) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            queue.async {
                do { continuation.resume(returning: try body(self.raw)) } catch { continuation.resume(throwing: error) }
            }
        }
    }

    /// True when this libusb can deliver hotplug events (on Linux they also need a running udev).
    var hasHotplug: Bool { libusb_has_capability(UInt32(LIBUSB_CAP_HAS_HOTPLUG.rawValue)) != 0 }
}
