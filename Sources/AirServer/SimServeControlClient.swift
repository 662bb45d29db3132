import SocketServing
import Foundation
import HCITransports
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The client side of a served air's control socket (`hil sim power --control unix:PATH …`): sends one
/// request line and returns the one answer line.
package enum SimServeControlClient {
    /// Sends `line` to the control socket at `address` and waits up to `timeout` for the answer.
    /// Throws when nothing listens there, the server closes without answering, or the deadline passes.
    package static func request(_ line: String, to address: ServeAddress, timeout: Duration) throws(ServeError) -> String {
        let fd = try connect(address)
        defer { _ = SocketOptions.closeDescriptor(fd) }
        POSIX.setNonBlocking(fd)
        let deadline = ContinuousClock.now.advanced(by: timeout)
        guard SocketOptions.writeAll(fd, Array((line + "\n").utf8), deadline: deadline) else {
            throw ServeError("\(address): cannot send the request: \(POSIX.describe(errno))")
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        while true {
            if let newline = received.firstIndex(of: 0x0A) {
                return String(decoding: received[..<newline], as: UTF8.self)
            }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else {
                throw ServeError("\(address): no answer to '\(line)' within \(timeout) (got \(received.isEmpty ? "nothing" : "'\(String(decoding: received, as: UTF8.self))'"))")
            }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1))
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                received.append(contentsOf: chunk[0..<count])
            } else if count == 0 {
                throw ServeError("\(address): the server closed the connection without answering '\(line)'")
            } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                throw ServeError("\(address): reading the answer failed: \(POSIX.describe(errno))")
            }
        }
    }

    private static func connect(_ address: ServeAddress) throws(ServeError) -> Int32 {
        switch address {
        case .unix(let path):
            guard let fd = SocketOptions.connectUnix(path) else {
                let code = errno
                throw ServeError(code == ENOENT || code == ECONNREFUSED
                    ? "\(address): no served air listens there (is `hil sim serve --control \(address)` running?)"
                    : "\(address): cannot connect: \(POSIX.describe(code))")
            }
            return fd
        case .tcp:
            let fd = POSIX.streamSocket(family: address.socketAddress.family)
            guard fd >= 0 else { throw ServeError("\(address): socket() failed: \(POSIX.describe(errno))") }
            let result = address.socketAddress.withSockaddr { Glibc.connect(fd, $0, $1) } ?? -1
            guard result == 0 else {
                let code = errno
                _ = SocketOptions.closeDescriptor(fd)
                throw ServeError("\(address): cannot connect: \(POSIX.describe(code))")
            }
            return fd
        }
    }
}
