import Foundation
import HCITransports
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few socket calls the served air needs beside HCI's transports: flags, the bound port, a liveness
/// probe for a Unix socket file, and a bounded write of a whole buffer (for a client's own thread).
package enum SocketOptions {
    /// `TCP_NODELAY`: an H4 packet goes out at once, not after a delayed ACK.
    static func setNoDelay(_ fd: Int32) {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// `SO_SNDBUF`: how much the kernel holds of what is written to the socket and not yet read (Linux
    /// doubles the value for its own bookkeeping).
    package static func setSendBuffer(_ fd: Int32, bytes: Int) {
        var value = Int32(clamping: bytes)
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// TCP keepalive on an accepted connection: after `KeepAlive.idle` without traffic the kernel probes the
    /// peer every `KeepAlive.interval`, and after `KeepAlive.probes` unanswered probes the connection fails,
    /// so a host that vanished (powered off, its network gone) does not hold its connection for ever.
    static func setKeepAlive(_ fd: Int32) {
        func set(_ level: Int32, _ option: Int32, _ value: Int32) {
            var value = value
            setsockopt(fd, level, option, &value, socklen_t(MemoryLayout<Int32>.size))
        }
        set(SOL_SOCKET, SO_KEEPALIVE, 1)
        #if os(Linux)
        set(Int32(IPPROTO_TCP), TCP_KEEPIDLE, KeepAlive.idle)
        set(Int32(IPPROTO_TCP), TCP_KEEPINTVL, KeepAlive.interval)
        set(Int32(IPPROTO_TCP), TCP_KEEPCNT, KeepAlive.probes)
        #endif
    }

    /// The keepalive of accepted TCP connections: a vanished host is found within 60 + 6 × 10 = 120 s.
    enum KeepAlive {
        /// Seconds without traffic before the first probe.
        static let idle: Int32 = 60
        /// Seconds between probes.
        static let interval: Int32 = 10
        /// Unanswered probes before the connection fails.
        static let probes: Int32 = 6
    }

    /// The local port of a bound TCP socket (`getsockname(2)`).
    static func boundPort(_ fd: Int32) -> UInt16? {
        ipName(fd, peer: false)?.port
    }

    /// The remote end of a connected TCP socket (`getpeername(2)`), as `127.0.0.1:40312` or `[::1]:40312`;
    /// nil for a Unix socket.
    package static func peerAddress(_ fd: Int32) -> String? {
        ipName(fd, peer: true).map { SocketAddress.ip(host: $0.host, port: $0.port).description }
    }

    /// A TCP socket's own or peer address: numeric host and port.
    private static func ipName(_ fd: Int32, peer: Bool) -> (host: String, port: UInt16)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length) }
        }
        guard result == 0 else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        return withUnsafePointer(to: &storage) { pointer -> (String, UInt16)? in
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var raw = address.pointee.sin_addr
                    let host = inet_ntop(AF_INET, &raw, &text, socklen_t(text.count)).map { String(cString: $0) } ?? "?"
                    return (host, UInt16(bigEndian: address.pointee.sin_port))
                }
            case AF_INET6:
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var raw = address.pointee.sin6_addr
                    let host = inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count)).map { String(cString: $0) } ?? "?"
                    return (host, UInt16(bigEndian: address.pointee.sin6_port))
                }
            default:
                return nil
            }
        }
    }

    /// Whether something accepts connections on the Unix socket at `path` (a blocking `connect(2)` to a
    /// Unix socket answers at once: refused, absent or accepted).
    static func isLiveUnixSocket(_ path: String) -> Bool {
        guard let fd = connectUnix(path) else { return false }
        close(fd)
        return true
    }

    /// A connected, blocking Unix stream socket to `path`, or nil (errno says why).
    package static func connectUnix(_ path: String) -> Int32? {
        guard path.utf8.count <= SocketAddress.unixPathLimit else { errno = ENAMETOOLONG; return nil }
        let fd = POSIX.streamSocket(family: AF_UNIX)
        guard fd >= 0 else { return nil }
        let result = SocketAddress.unix(path: path).withSockaddr { connect(fd, $0, $1) } ?? -1
        guard result == 0 else {
            let code = errno
            close(fd)
            errno = code
            return nil
        }
        return fd
    }

    /// Writes all of `bytes` to a (possibly non-blocking) descriptor (a closed peer is EPIPE, never SIGPIPE), waiting for POLLOUT until
    /// `deadline`. False when the peer is gone or the deadline passed. It blocks its thread: a client's
    /// (`hil sim power`), never a server's.
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8], deadline: ContinuousClock.Instant) -> Bool {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { raw in
                POSIX.writeNoSignal(fd, raw.baseAddress.map { $0 + written }, bytes.count - written)
            }
            if result > 0 { written += result; continue }
            let code = errno
            guard result < 0, code == EAGAIN || code == EWOULDBLOCK || code == EINTR else { return false }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return false }
            var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let milliseconds = Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            _ = poll(&descriptor, 1, milliseconds)
        }
        return true
    }

}

extension SocketOptions {
    /// `close(2)`, for descriptors no transport owns yet.
    package static func closeDescriptor(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.close(fd)
        #else
        Darwin.close(fd)
        #endif
    }
}
