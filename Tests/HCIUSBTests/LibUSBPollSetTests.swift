import CLibUSB
import Glibc
import Testing
@testable import HCIUSB

/// The epoll set the host's loop watches must say "ready" exactly when libusb has something to handle,
/// and go quiet once `libusb_handle_events` has handled it: checked against libusb's own event descriptor,
/// which `libusb_interrupt_event_handler` signals and event handling clears (no USB device needed).
@Suite struct LibUSBPollSetTests {
    /// libusb starts only where the system shows USB (usbfs); without it there is nothing to gather.
    static let libUSBStarts: Bool = {
        guard let session = try? LibUSBSession.make(moniker: "usb:probe") else { return false }
        session.finish()
        return true
    }()

    @Test(.enabled(if: libUSBStarts, "libusb starts here (usbfs present)"))
    func readyWhenLibUSBIsSignalledAndQuietOnceHandled() throws {
        let session = try LibUSBSession.make(moniker: "usb:test")
        defer { session.finish() }
        let set = try #require(LibUSBPollSet.make(context: session.context), "epoll over libusb's pollfds on Linux")
        defer { set.close(context: session.context) }

        // A fresh context already has something for its event handler (libusb 1.0.26 signals its event
        // descriptor during libusb_init): handle it first, as the loop does when it starts watching.
        var zero = timeval(tv_sec: 0, tv_usec: 0)
        #expect(libusb_handle_events_timeout_completed(session.context, &zero, nil) == 0)
        #expect(readable(set.fd, waitingMilliseconds: 0) == false, "nothing pending once handled")
        // libusb_interrupt_event_handler writes libusb's event descriptor before it returns: the set is ready at
        // once, without waiting on the wall clock for it.
        libusb_interrupt_event_handler(session.context)
        #expect(readable(set.fd, waitingMilliseconds: 0), "libusb's event descriptor is signalled: the set is ready")
        #expect(libusb_handle_events_timeout_completed(session.context, &zero, nil) == 0)
        #expect(readable(set.fd, waitingMilliseconds: 0) == false, "handled: the set is quiet again")
    }

    private func readable(_ fd: Int32, waitingMilliseconds timeout: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, timeout) == 1 && entry.revents & Int16(POLLIN) != 0
    }
}
