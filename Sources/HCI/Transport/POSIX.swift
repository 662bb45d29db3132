#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin wrappers over the system calls the file-descriptor transports (and the served simulated air) make.
public enum POSIX {
    /// The symbolic name and message of an errno value, e.g. "ECONNREFUSED (Connection refused)".
    public static func describe(_ code: Int32) -> String {
        let names: [Int32: String] = [
            EPERM: "EPERM", ENOENT: "ENOENT", EIO: "EIO", EBADF: "EBADF", EAGAIN: "EAGAIN", EACCES: "EACCES",
            EBUSY: "EBUSY", ENODEV: "ENODEV", EINVAL: "EINVAL", EPIPE: "EPIPE", ECONNREFUSED: "ECONNREFUSED",
            ECONNRESET: "ECONNRESET", ETIMEDOUT: "ETIMEDOUT", EAFNOSUPPORT: "EAFNOSUPPORT", ENOTSOCK: "ENOTSOCK",
            EHOSTUNREACH: "EHOSTUNREACH", ENETUNREACH: "ENETUNREACH", EADDRNOTAVAIL: "EADDRNOTAVAIL",
            ENXIO: "ENXIO", ENOTTY: "ENOTTY", EINPROGRESS: "EINPROGRESS",
        ]
        let message = String(cString: strerror(code))
        return "\(names[code] ?? "errno \(code)") (\(message))"
    }

    /// `O_NONBLOCK` and `FD_CLOEXEC` on `fd`.
    public static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    /// Waits until `fd` is ready for `events` or `deadline` passes; returns false on timeout.
    public static func wait(fd: Int32, events: Int16, until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            if remaining <= .zero { return false }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ms = Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            let result = poll(&entry, 1, ms)
            if result > 0 { return true }
            if result < 0 && errno != EINTR { return true } // let the caller's next call report the error
        }
    }

    /// `send(2)` with `MSG_NOSIGNAL` on a socket, `write(2)` on anything else (a serial port): a peer that
    /// has closed its end fails the write with EPIPE instead of killing the process with SIGPIPE.
    public static func writeNoSignal(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        let sent = send(fd, buffer, count, Int32(MSG_NOSIGNAL))
        if sent >= 0 || errno != ENOTSOCK { return sent }
        #endif
        return write(fd, buffer, count)
    }

    public static func closeFD(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }
}
