import CLibUSB
#if canImport(Glibc)
import Glibc
#endif

/// libusb's file descriptors (`libusb_get_pollfds`: on Linux the usbfs device node, libusb's timerfd for
/// transfer timeouts and its internal event descriptor) gathered into one epoll descriptor, so that a host's
/// event loop can watch libusb with its one watched descriptor and run libusb's event handling itself
/// (`libusb_handle_events_timeout_completed` with a zero timeout): a transfer's completion then reaches
/// the host on the thread that decodes it, with no thread hand-off in between. libusb's pollfd notifiers
/// keep the set in step when libusb adds or removes a descriptor.
///
/// Linux only (`epoll`); elsewhere `make` returns nil and the transport runs libusb's events on a thread.
struct LibUSBPollSet: Sendable {
    /// The epoll descriptor: readable while any of libusb's descriptors is ready.
    let fd: Int32

    /// Nil when this platform has no epoll, when libusb's timeouts need polling (no timerfd), or when
    /// epoll cannot be set up.
    static func make(context: OpaquePointer) -> LibUSBPollSet? {
        #if os(Linux)
        guard libusb_pollfds_handle_timeouts(context) != 0 else { return nil }
        let set = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard set >= 0 else { return nil }
        // Notifiers first, so a descriptor libusb adds meanwhile is not missed (adding twice is harmless).
        libusb_set_pollfd_notifiers(context, pollfdAdded, pollfdRemoved, token(set))
        guard let list = libusb_get_pollfds(context) else {
            libusb_set_pollfd_notifiers(context, nil, nil, nil)
            _ = Glibc.close(set)
            return nil
        }
        defer { libusb_free_pollfds(list) }
        var index = 0
        while let entry = list[index] {
            add(entry.pointee.fd, events: entry.pointee.events, to: set)
            index += 1
        }
        return LibUSBPollSet(fd: set)
        #else
        return nil
        #endif
    }

    /// Detaches the notifiers and closes the epoll descriptor (libusb's own descriptors stay open).
    func close(context: OpaquePointer) {
        #if os(Linux)
        libusb_set_pollfd_notifiers(context, nil, nil, nil)
        _ = Glibc.close(fd)
        #endif
    }
}

#if os(Linux)
/// The epoll descriptor travels through libusb's `user_data` as fd + 1 (never a null pointer).
private func token(_ set: Int32) -> UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: Int(set) + 1) }

private func set(from token: UnsafeMutableRawPointer?) -> Int32? {
    guard let token else { return nil }
    return Int32(exactly: Int(bitPattern: token) - 1)
}

private func add(_ fd: Int32, events: Int16, to set: Int32) {
    var event = epoll_event()
    event.events = UInt32(UInt16(bitPattern: events)) // POLLIN/POLLOUT have the values of EPOLLIN/EPOLLOUT
    event.data.fd = fd
    if epoll_ctl(set, EPOLL_CTL_ADD, fd, &event) != 0 && errno == EEXIST {
        _ = epoll_ctl(set, EPOLL_CTL_MOD, fd, &event)
    }
}

private let pollfdAdded: libusb_pollfd_added_cb = { fd, events, token in
    guard let set = set(from: token) else { return }
    add(fd, events: events, to: set)
}

private let pollfdRemoved: libusb_pollfd_removed_cb = { fd, token in
    guard let set = set(from: token) else { return }
    _ = epoll_ctl(set, EPOLL_CTL_DEL, fd, nil)
}
#endif
