#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A serial device (a UART, a USB CDC ACM port, a pseudo-terminal) opened raw: termios's `cfmakeraw` (no echo,
/// no line discipline, 8N1) with the receiver on and modem lines ignored, non-blocking and close-on-exec, its
/// queues flushed. For an H4 UART and for a power meter's port alike.
package enum RawTerminal {
    /// The step that failed and the errno it gave.
    package enum Failure: Error, Equatable {
        /// `open(2)` failed (ENOENT, EACCES, …).
        case open(SystemCallError)
        /// `tcgetattr(3)` failed: the path is no terminal device.
        case notATerminal(SystemCallError)
        /// `tcsetattr(3)` failed.
        case configure(SystemCallError)
    }

    /// Opens `path` raw and returns its descriptor, after `adjust` (a speed, flow control) has had the options.
    package static func open(_ path: String, adjust: (inout termios) -> Void = { _ in }) throws(Failure) -> Int32 {
        #if canImport(Glibc)
        let fd = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        #else
        let fd = Darwin.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        #endif
        guard fd >= 0 else { throw .open(.current) }
        var options = termios()
        guard tcgetattr(fd, &options) == 0 else {
            let error = SystemCallError.current
            close(fd)
            throw .notATerminal(error)
        }
        cfmakeraw(&options)
        options.c_cflag |= tcflag_t(CLOCAL | CREAD)
        adjust(&options)
        guard tcsetattr(fd, TCSANOW, &options) == 0 else {
            let error = SystemCallError.current
            close(fd)
            throw .configure(error)
        }
        tcflush(fd, TCIOFLUSH)
        return fd
    }
}
