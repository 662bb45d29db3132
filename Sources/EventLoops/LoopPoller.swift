/// What the watched descriptor is ready for after a wait.
struct Readiness: OptionSet, Sendable {
    let rawValue: UInt8
    static let readable = Readiness(rawValue: 1)
    static let writable = Readiness(rawValue: 2)
}

/// The descriptor an event loop watches, and for what: readability unless its owner stopped reading (an
/// input that ended); writability only while a transport has bytes queued that the kernel would not take.
/// An error or hang-up is reported either way.
struct WatchInterest: Equatable, Sendable {
    var fd: Int32
    /// Tells a new `watch` call from the one already registered when the descriptor number is the same
    /// (a closed descriptor's number is reused by the next one opened).
    var generation: UInt64
    var writable: Bool
    var readable = true
}

#if os(Linux)
import CLinuxCalls
import Glibc

/// What an event loop blocks in: `epoll_wait(2)` over an eventfd (wake-ups from other threads), a timerfd
/// armed with the next deadline to the nanosecond (`CLOCK_MONOTONIC`, relative), and at most one watched
/// descriptor. The loop's thread keeps its own copy and alone calls `wait`; `wake` and the registration
/// calls may be made from any thread (under the loop's lock, so that a descriptor leaves epoll before
/// its owner closes it: a registration outliving its descriptor number would report for whatever file
/// reuses the number).
struct LoopPoller: Sendable {
    private let epollFD: Int32
    private let wakeFD: Int32
    private let timerFD: Int32
    /// When the timerfd is armed to expire (real time), nil when it is not armed.
    private var armedExpiry: ContinuousClock.Instant?
    /// Where epoll_wait puts what it found (kept, so a wait allocates nothing).
    private var found = [epoll_event](repeating: epoll_event(), count: 3)

    init() throws(EventLoopError) {
        func fail(_ call: String) -> EventLoopError {
            EventLoopError(description: "\(call) failed: \(String(cString: strerror(errno)))")
        }
        let epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else { throw fail("epoll_create1") }
        let wakeFD = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
        guard wakeFD >= 0 else {
            _ = Glibc.close(epollFD)
            throw fail("eventfd")
        }
        let timerFD = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK) | Int32(TFD_CLOEXEC))
        guard timerFD >= 0 else {
            _ = Glibc.close(epollFD)
            _ = Glibc.close(wakeFD)
            throw fail("timerfd_create")
        }
        for fd in [wakeFD, timerFD] {
            var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(u64: Self.internalTag | UInt64(UInt32(bitPattern: fd))))
            guard epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) == 0 else {
                let error = fail("epoll_ctl")
                for open in [epollFD, wakeFD, timerFD] { _ = Glibc.close(open) }
                throw error
            }
        }
        self.epollFD = epollFD
        self.wakeFD = wakeFD
        self.timerFD = timerFD
    }

    /// Marks the loop's own descriptors in epoll's data; a watch's data is its generation (below 2^63).
    private static let internalTag: UInt64 = 1 << 63

    /// Closes the descriptors, once the loop's thread has ended.
    func close() {
        for fd in [epollFD, wakeFD, timerFD] { _ = Glibc.close(fd) }
    }

    /// Makes a blocked (or the next) `wait` return. Any thread.
    func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, MemoryLayout<UInt64>.size)
    }

    /// Starts watching `interest.fd`. Returns false when epoll refuses it (a regular file, say).
    func register(_ interest: WatchInterest) -> Bool {
        var event = Self.event(interest)
        return epoll_ctl(epollFD, EPOLL_CTL_ADD, interest.fd, &event) == 0
    }

    /// Changes the write interest of the watched descriptor.
    func modify(_ interest: WatchInterest) {
        var event = Self.event(interest)
        _ = epoll_ctl(epollFD, EPOLL_CTL_MOD, interest.fd, &event)
    }

    /// Stops watching the descriptor; call before it is closed.
    func unregister(_ interest: WatchInterest) {
        _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, interest.fd, nil)
    }

    private static func event(_ interest: WatchInterest) -> epoll_event {
        epoll_event(events: (interest.readable ? EPOLLIN.rawValue : 0) | (interest.writable ? EPOLLOUT.rawValue : 0),
                    data: epoll_data_t(u64: interest.generation))
    }

    /// Blocks until a wake-up, the watched descriptor is ready, or `timeout` passes (nil: no limit);
    /// with `block` false it only looks. Returns the readiness of the watch with `watching`'s generation
    /// (an event of an older watch may still be in the batch and is dropped). An error or hang-up counts as
    /// both readable and writable, so that the next read or write reports it.
    mutating func wait(watching: WatchInterest?, timeout limit: Duration?, block: Bool) -> Readiness {
        var timeout: Int32 = block ? -1 : 0
        if block, let limit {
            if limit <= .zero {
                timeout = 0
            } else {
                // An armed expiry no later than needed stands (an early wake only looks again): deadlines
                // mostly move later, so most waits make no timerfd_settime call at all.
                let now = ContinuousClock.now
                let expiry = now.advanced(by: limit)
                if let armed = armedExpiry, armed > now, armed <= expiry {} else { arm(limit, expiring: expiry) }
            }
        }
        let epoll = epollFD
        let count = found.withUnsafeMutableBufferPointer { buffer in
            epoll_wait(epoll, buffer.baseAddress, Int32(buffer.count), timeout)
        }
        var ready: Readiness = []
        for event in found.prefix(Int(max(count, 0))) {
            var drained: UInt64 = 0
            let data = event.data.u64
            if data & Self.internalTag != 0 {
                let fd = Int32(bitPattern: UInt32(truncatingIfNeeded: data))
                _ = read(fd, &drained, MemoryLayout<UInt64>.size)
                if fd == timerFD { armedExpiry = nil }
                continue
            }
            guard let watching, data == watching.generation else { continue }
            let failed = event.events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0
            if failed || (watching.readable && event.events & EPOLLIN.rawValue != 0) { ready.insert(.readable) }
            if watching.writable, failed || event.events & EPOLLOUT.rawValue != 0 { ready.insert(.writable) }
        }
        return ready
    }

    /// Arms the timerfd to expire after `remaining` (at `expiry`).
    private mutating func arm(_ remaining: Duration, expiring expiry: ContinuousClock.Instant) {
        var spec = itimerspec()
        let (seconds, attoseconds) = remaining.components
        spec.it_value.tv_sec = Int(clamping: seconds)
        // At least 1 ns: an all-zero it_value would disarm the timer instead.
        spec.it_value.tv_nsec = max(Int(attoseconds / 1_000_000_000), seconds == 0 ? 1 : 0)
        _ = timerfd_settime(timerFD, 0, &spec, nil)
        armedExpiry = expiry
    }
}
#else
#if canImport(Darwin)
import Darwin
#endif

/// Where there is no epoll: `poll(2)` over a self-pipe and the watched descriptor, deadlines rounded up to
/// whole milliseconds.
struct LoopPoller: Sendable {
    private let pipe: WakeupPipe

    init() throws(EventLoopError) {
        pipe = try WakeupPipe()
    }

    func close() { pipe.close() }

    func wake() { pipe.wake() }

    func register(_ interest: WatchInterest) -> Bool { true }
    func modify(_ interest: WatchInterest) {}
    func unregister(_ interest: WatchInterest) {}

    mutating func wait(watching watched: WatchInterest?, timeout limit: Duration?, block: Bool) -> Readiness {
        var timeout: Int32 = block ? -1 : 0
        if block, let remaining = limit {
            timeout = remaining <= .zero ? 0 : Int32(clamping: remaining.components.seconds * 1000
                + (remaining.components.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
        }
        let events = (watched?.readable != false ? Int16(POLLIN) : 0) | (watched?.writable == true ? Int16(POLLOUT) : 0)
        var fds = [pollfd(fd: pipe.readFD, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: watched?.fd ?? -1, events: events, revents: 0)]
        _ = poll(&fds, 2, timeout)
        if fds[0].revents != 0 { pipe.drain() }
        var ready: Readiness = []
        guard let watched, fds[1].revents != 0 else { return ready }
        let failed = fds[1].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
        if failed || (watched.readable && fds[1].revents & Int16(POLLIN) != 0) { ready.insert(.readable) }
        if watched.writable, failed || fds[1].revents & Int16(POLLOUT) != 0 { ready.insert(.writable) }
        return ready
    }
}
#endif
