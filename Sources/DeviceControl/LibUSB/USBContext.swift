import Dispatch
import LibUSB

/// The libusb context DeviceControl uses and the serial queue every libusb call runs on.
///
/// libusb calls block (a control transfer waits up to its timeout), so they never run on the Swift
/// concurrency pool: `run` hops to this context's own dispatch queue and resumes the caller through a
/// continuation. Device handles are opened and closed inside one `run` body and never escape it.
final class USBContext: Sendable {
    private let libusb: LibUSBContext
    private let queue = DispatchQueue(label: "DeviceControl.libusb")

    private init(libusb: LibUSBContext) { self.libusb = libusb }

    /// A new context, or `.unsupported` saying why libusb cannot see USB here.
    static func open() throws -> USBContext {
        do { return USBContext(libusb: try LibUSBContext.open()) } catch {
            throw PowerSwitchError(.unsupported, error.message)
        }
    }

    /// The process-wide context, opened on first use.
    static let shared: Result<USBContext, PowerSwitchError> = {
        do { return .success(try open()) } catch let error as PowerSwitchError {
            return .failure(error)
        } catch {
            return .failure(PowerSwitchError(.unsupported, "libusb could not start: \(error)"))
        }
    }()

    /// Runs `body` with the context on the libusb queue. `body` must not block without a timeout.
    func run<T: Sendable>(_ body: @escaping @Sendable (LibUSBContext) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            queue.async {
                do { continuation.resume(returning: try body(self.libusb)) } catch { continuation.resume(throwing: error) }
            }
        }
    }

    /// True when this libusb can deliver hotplug events (on Linux they also need a running udev).
    var hasHotplug: Bool { libusb.hasHotplug }
}
