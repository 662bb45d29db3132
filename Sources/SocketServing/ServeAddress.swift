import HCITransports
/// Where the served air listens: a Unix stream socket or a loopback TCP port, written as the monikers a
/// client then uses (`unix:PATH` is also the client's moniker; `tcp:127.0.0.1:PORT` is reached with
/// `tcp-client:127.0.0.1:PORT`). Only loopback TCP addresses are accepted unless the caller allows remote
/// ones (`hil serve --allow-remote`): a bench is a test bench, not a network service.
package enum ServeAddress: Hashable, Sendable, CustomStringConvertible {
    case unix(path: String)
    /// A numeric IP address: an IPv4 loopback literal (127.0.0.0/8) or `::1` unless remote addresses were
    /// allowed; port 0 asks the kernel for a free port.
    case tcp(host: String, port: UInt16)

    /// The largest Unix socket path (sockaddr_un's sun_path, without its terminating NUL).
    static let maximumPathLength = SocketAddress.unixPathLimit

    /// The address `bind(2)` and `connect(2)` take.
    package var socketAddress: SocketAddress {
        switch self {
        case .unix(let path): return .unix(path: path)
        case .tcp(let host, let port): return .ip(host: host, port: port)
        }
    }

    /// Parses `unix:PATH` or `tcp:HOST:PORT` (`tcp:[::1]:PORT` for IPv6). With `allowingRemote`, HOST may be
    /// any numeric IPv4 or IPv6 address (`0.0.0.0` for every interface); otherwise only a loopback one.
    package init(parsing text: String, allowingRemote: Bool = false) throws(ServeError) {
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst(5))
            guard !path.isEmpty else { throw ServeError("'\(text)': unix: needs a socket path", usage: true) }
            guard path.utf8.count <= Self.maximumPathLength else {
                throw ServeError("'\(text)': the socket path is \(path.utf8.count) bytes; the limit is \(Self.maximumPathLength)", usage: true)
            }
            self = .unix(path: path)
            return
        }
        guard text.hasPrefix("tcp:") else {
            throw ServeError("'\(text)' is not a listening address (unix:PATH or tcp:127.0.0.1:PORT)", usage: true)
        }
        let rest = text.dropFirst(4)
        guard let colon = rest.lastIndex(of: ":") else {
            throw ServeError("'\(text)': expected tcp:HOST:PORT", usage: true)
        }
        var host = String(rest[..<colon])
        let portText = rest[rest.index(after: colon)...]
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard let port = UInt16(portText) else {
            throw ServeError("'\(text)': the port '\(portText)' is not a number from 0 to 65535", usage: true)
        }
        if allowingRemote, !Self.isLoopback(host) {
            guard SocketAddress.ip(host: host, port: port).withSockaddr({ _, _ in true }) != nil else {
                throw ServeError("'\(text)': \(host.isEmpty ? "no host" : "'\(host)' is not a numeric IPv4 or IPv6 address")", usage: true)
            }
            self = .tcp(host: host, port: port)
            return
        }
        guard Self.isLoopback(host) else {
            throw ServeError("'\(text)': \(host.isEmpty ? "no host" : "'\(host)' is not a loopback address"); the air listens on 127.0.0.1 or ::1 only", usage: true)
        }
        self = .tcp(host: host == "localhost" ? "127.0.0.1" : host, port: port)
    }

    /// Whether only this host can connect: a Unix socket, or a loopback TCP address.
    package var isLoopback: Bool {
        switch self {
        case .unix: true
        case .tcp(let host, _): Self.isLoopback(host)
        }
    }

    /// 127.0.0.0/8 as a dotted quad, `::1`, or `localhost`.
    static func isLoopback(_ host: String) -> Bool {
        if host == "::1" || host == "localhost" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isNumber) }) else { return false }
        let values = parts.compactMap { Int($0) }
        return values.count == 4 && values.allSatisfy { $0 <= 255 } && values[0] == 127
    }

    package var description: String {
        switch self {
        case .unix(let path): "unix:\(path)"
        case .tcp(let host, let port): host.contains(":") ? "tcp:[\(host)]:\(port)" : "tcp:\(host):\(port)"
        }
    }
}
