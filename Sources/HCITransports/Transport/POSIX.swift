#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if os(Linux)
import CLinuxCalls
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

    /// A stream socket of `family` that no program started meanwhile by another thread inherits
    /// (`SOCK_CLOEXEC`, set atomically where the system has it). -1 and errno on failure.
    public static func streamSocket(family: Int32) -> Int32 {
        #if canImport(Glibc)
        return socket(family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        #else
        let fd = socket(family, SOCK_STREAM, 0)
        if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return fd
        #endif
    }

    /// Accepts one connection on a listening socket; the new descriptor is non-blocking and close-on-exec
    /// from the start (`accept4`). -1 and errno when none is waiting (EAGAIN) or the socket failed.
    public static func acceptConnection(_ fd: Int32) -> Int32 {
        #if os(Linux)
        return hil_accept_cloexec(fd)
        #else
        let client = accept(fd, nil, nil)
        if client >= 0 { setNonBlocking(client) }
        return client
        #endif
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
