#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A socket address as `bind(2)` and `connect(2)` take it — `struct sockaddr_un` for a Unix path,
/// `sockaddr_in` or `sockaddr_in6` for a numeric IP address and port — built in one place for the H4
/// socket transports and the served simulated air.
public enum SocketAddress: Sendable, Hashable, CustomStringConvertible {
    case unix(path: String)
    /// A numeric IPv4 (`127.0.0.1`) or IPv6 (`::1`) address; no name lookup.
    case ip(host: String, port: UInt16)

    /// The longest Unix socket path: `sun_path` less its terminating NUL.
    public static let unixPathLimit = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// `AF_UNIX`, `AF_INET` or `AF_INET6`.
    public var family: Int32 {
        switch self {
        case .unix: return AF_UNIX
        case .ip(let host, _): return host.contains(":") ? AF_INET6 : AF_INET
        }
    }

    public var description: String {
        switch self {
        case .unix(let path): return path
        case .ip(let host, let port): return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
    }

    /// Calls `body` with the address and its length; nil (and `body` not called) when the path is longer
    /// than `unixPathLimit` or the host is not a numeric address of its family.
    public func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R? {
        switch self {
        case .unix(let path):
            guard path.utf8.count <= Self.unixPathLimit else { return nil }
            var storage = sockaddr_un()
            storage.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &storage.sun_path) { raw in
                for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
            }
            return Self.call(&storage, body)
        case .ip(let host, let port) where family == AF_INET6:
            var storage = sockaddr_in6()
            storage.sin6_family = sa_family_t(AF_INET6)
            storage.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, host, &storage.sin6_addr) == 1 else { return nil }
            return Self.call(&storage, body)
        case .ip(let host, let port):
            var storage = sockaddr_in()
            storage.sin_family = sa_family_t(AF_INET)
            storage.sin_port = port.bigEndian
            guard inet_pton(AF_INET, host, &storage.sin_addr) == 1 else { return nil }
            return Self.call(&storage, body)
        }
    }

    private static func call<Storage, R>(_ storage: inout Storage, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<Storage>.size)) }
        }
    }
}
