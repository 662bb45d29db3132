import CLibUSB
import LibUSB

/// A device arriving or leaving.
package enum USBChange: Sendable, Equatable, CustomStringConvertible {
    case arrived(USBPresence)
    case left(USBPresence)

    package var description: String {
        switch self {
        case .arrived(let device): return "+ \(device)"
        case .left(let device): return "- \(device)"
        }
    }
}

/// Watches the USB tree: libusb hotplug events where libusb offers them (they wake the watcher at once),
/// and polling in any case, since hotplug on Linux also needs a running udev (a bare guest has none).
package struct USBWatcher: Sendable {
    let context: USBContext
    let probe: SystemUSBProbe
    package let pollInterval: Duration

    package init(sysfs: SysfsRoot = SysfsRoot(), pollInterval: Duration = .milliseconds(250)) throws {
        self.context = try USBContext.shared.get()
        self.probe = SystemUSBProbe(sysfs: sysfs)
        self.pollInterval = pollInterval
    }

    /// True when libusb reports hotplug support.
    package var usesHotplug: Bool { context.hasHotplug }

    /// Changes until `duration` has passed (or the consumer stops iterating). `ready` is called once the
    /// first snapshot is taken: changes after that moment are reported.
    package func changes(for duration: Duration, ready: @escaping @Sendable () -> Void = {}) -> AsyncThrowingStream<USBChange, any Error> {
        let context = self.context, probe = self.probe, interval = self.pollInterval
        return AsyncThrowingStream { continuation in
            let task = Task {
                let registration = context.hasHotplug ? try? await HotplugRegistration.register(context) : nil
                let clock = ContinuousClock()
                let end = clock.now + duration
                // Keyed by location and ID: a serial read a moment after arrival is not a second arrival.
                func keyed(_ devices: [USBPresence]) -> [String: USBPresence] {
                    Dictionary(devices.map { ("\($0.location) \($0.id)", $0) }, uniquingKeysWith: { first, _ in first })
                }
                var known: [String: USBPresence] = [:]
                do { known = keyed(try await probe.presentDevices()) } catch { continuation.finish(throwing: error); return }
                ready()
                var lastPoll = clock.now
                do {
                    while clock.now < end, !Task.isCancelled {
                        let woke = try await registration?.drain(context) ?? false
                        if woke || clock.now - lastPoll >= interval {
                            lastPoll = clock.now
                            let now = keyed(try await probe.presentDevices())
                            for key in known.keys.sorted() where now[key] == nil { if let device = known[key] { continuation.yield(.left(device)) } }
                            for key in now.keys.sorted() where known[key] == nil { if let device = now[key] { continuation.yield(.arrived(device)) } }
                            known = now
                        }
                        try await Task.sleep(for: .milliseconds(50))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
                if let registration { try? await registration.deregister(context) }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// A libusb hotplug callback registration. The callback only sets `pending`; it runs inside
/// libusb_handle_events_timeout_completed, which `drain` calls on the libusb queue.
final class HotplugRegistration: @unchecked Sendable {
    // @unchecked Sendable: `handle` and `pending` are touched only on the USBContext's serial queue
    // (registration, the callback inside event handling, drain, deregistration all run there).
    private var handle: libusb_hotplug_callback_handle = 0
    fileprivate var pending = false

    static func register(_ context: USBContext) async throws -> HotplugRegistration {
        let registration = HotplugRegistration()
        try await context.run { context in
            let events = Int32(LIBUSB_HOTPLUG_EVENT_DEVICE_ARRIVED.rawValue | LIBUSB_HOTPLUG_EVENT_DEVICE_LEFT.rawValue)
            let code = libusb_hotplug_register_callback(
                context.raw, events, 0, LIBUSB_HOTPLUG_MATCH_ANY, LIBUSB_HOTPLUG_MATCH_ANY, LIBUSB_HOTPLUG_MATCH_ANY,
                { _, _, _, userData in
                    if let userData { Unmanaged<HotplugRegistration>.fromOpaque(userData).takeUnretainedValue().pending = true }
                    return 0
                },
                Unmanaged.passUnretained(registration).toOpaque(), &registration.handle)
            guard code == 0 else {
                throw PowerSwitchError(.unsupported, "libusb hotplug registration failed: \(LibUSBError.name(code))")
            }
        }
        return registration
    }

    /// Handles pending libusb events without blocking; true when a device arrived or left.
    func drain(_ context: USBContext) async throws -> Bool {
        try await context.run { context in
            var zero = timeval(tv_sec: 0, tv_usec: 0)
            _ = libusb_handle_events_timeout_completed(context.raw, &zero, nil)
            defer { self.pending = false }
            return self.pending
        }
    }

    func deregister(_ context: USBContext) async throws {
        try await context.run { context in libusb_hotplug_deregister_callback(context.raw, self.handle) }
    }
}
