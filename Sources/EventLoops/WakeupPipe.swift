#if !os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A self-pipe that wakes an event loop blocked in `poll(2)`, where there is no eventfd.
struct WakeupPipe: Sendable {
    let readFD: Int32
    let writeFD: Int32

    init() throws(EventLoopError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw EventLoopError(description: "pipe() failed: \(String(cString: strerror(errno)))")
        }
        readFD = fds[0]
        writeFD = fds[1]
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
    }

    func wake() {
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }

    func drain() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while read(readFD, &buffer, buffer.count) > 0 {}
    }

    func close() {
        #if canImport(Glibc)
        _ = Glibc.close(readFD)
        _ = Glibc.close(writeFD)
        #else
        _ = Darwin.close(readFD)
        _ = Darwin.close(writeFD)
        #endif
    }
}
#endif
