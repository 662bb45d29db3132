#if os(Linux)
import CLinuxEvents
import Glibc

/// What an event loop blocks in: `epoll_wait(2)` over an eventfd (wake-ups from other threads), a timerfd
/// armed with the next deadline to the nanosecond (`CLOCK_MONOTONIC`, relative), and at most one watched
/// descriptor. The loop's thread keeps its own copy and alone calls `wait` and `setWatched`; `wake` may be
/// called on any copy from any thread.
struct LoopPoller: Sendable {
    private let epollFD: Int32
    private let wakeFD: Int32
    private let timerFD: Int32
    /// The watched descriptor registered with epoll, and the `watch` generation it belongs to (a new
    /// descriptor may reuse a closed one's number).
    private var watched: (fd: Int32, generation: UInt64)?
    private var timerArmed = false

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
            var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: fd))
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

    /// Closes the descriptors, once the loop's thread has ended.
    func close() {
        for fd in [epollFD, wakeFD, timerFD] { _ = Glibc.close(fd) }
    }

    /// Makes a blocked (or the next) `wait` return. Any thread.
    func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, MemoryLayout<UInt64>.size)
    }

    /// Watches `fd` (nil: nothing) for readability from now on; `generation` tells a new `watch` call from
    /// the one already registered when the descriptor number is the same.
    mutating func setWatched(_ fd: Int32?, generation: UInt64) {
        if let current = watched, current.fd == fd, current.generation == generation { return }
        if let current = watched {
            // Fails harmlessly when the descriptor was closed meanwhile (epoll dropped it itself).
            _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, current.fd, nil)
            watched = nil
        }
        guard let fd else { return }
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: fd))
        if epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) == 0 || errno == EEXIST {
            watched = (fd, generation)
        }
    }

    /// Blocks until a wake-up, the watched descriptor is readable, or `deadline` passes (nil: no deadline);
    /// with `block` false it only looks. Returns whether the watched descriptor is readable.
    mutating func wait(until deadline: ContinuousClock.Instant?, block: Bool) -> Bool {
        var timeout: Int32 = block ? -1 : 0
        if block, let deadline {
            let remaining = ContinuousClock.now.duration(to: deadline)
            if remaining <= .zero { timeout = 0 } else { arm(remaining) }
        } else if timerArmed {
            arm(nil)
        }
        var events = [epoll_event](repeating: epoll_event(), count: 3)
        let count = epoll_wait(epollFD, &events, Int32(events.count), timeout)
        var readable = false
        for event in events.prefix(Int(max(count, 0))) {
            var drained: UInt64 = 0
            switch event.data.fd {
            case wakeFD: _ = read(wakeFD, &drained, MemoryLayout<UInt64>.size)
            case timerFD: _ = read(timerFD, &drained, MemoryLayout<UInt64>.size)
            default: readable = readable || event.data.fd == watched?.fd
            }
        }
        return readable
    }

    /// Arms the timerfd to expire after `remaining` (nil: disarms it).
    private mutating func arm(_ remaining: Duration?) {
        var spec = itimerspec()
        if let remaining {
            let (seconds, attoseconds) = remaining.components
            spec.it_value.tv_sec = Int(clamping: seconds)
            // At least 1 ns: an all-zero it_value would disarm the timer instead.
            spec.it_value.tv_nsec = max(Int(attoseconds / 1_000_000_000), seconds == 0 ? 1 : 0)
        }
        _ = timerfd_settime(timerFD, 0, &spec, nil)
        timerArmed = remaining != nil
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
    private var watchedFD: Int32 = -1

    init() throws(EventLoopError) {
        pipe = try WakeupPipe()
    }

    func close() { pipe.close() }

    func wake() { pipe.wake() }

    mutating func setWatched(_ fd: Int32?, generation: UInt64) {
        watchedFD = fd ?? -1
    }

    mutating func wait(until deadline: ContinuousClock.Instant?, block: Bool) -> Bool {
        var timeout: Int32 = block ? -1 : 0
        if block, let deadline {
            let remaining = ContinuousClock.now.duration(to: deadline)
            timeout = remaining <= .zero ? 0 : Int32(clamping: remaining.components.seconds * 1000
                + (remaining.components.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
        }
        var fds = [pollfd(fd: pipe.readFD, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: watchedFD, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, 2, timeout)
        if fds[0].revents != 0 { pipe.drain() }
        return watchedFD >= 0 && fds[1].revents != 0
    }
}
#endif
