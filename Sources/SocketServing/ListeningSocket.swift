import EventLoops
import HCITransports
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listening stream socket (`socket(2)`, `bind(2)`, `listen(2)`) whose connections are accepted
/// (`accept(2)`, non-blocking) on its own `EventLoop`. A Unix socket's file is removed when it closes; a
/// stale file (nothing answers on it) is replaced, a live one is an error; an `ownerOnly` one's file is
/// made `0600` before it listens, so that only its owner (and root) can connect. Accepted TCP connections
/// have `TCP_NODELAY` and keepalive (`SocketOptions.setKeepAlive`). Its loop keeps no time of its own; it
/// joins `clock` (a served air's) so that a virtual air counts it among its loops.
package final class ListeningSocket: Sendable {
    /// The address it listens on, with the kernel's port when port 0 was asked for.
    package let address: ServeAddress
    private let fd: Int32
    private let loop: EventLoop
    private let closed = Mutex(false)

    package init(_ requested: ServeAddress, clock: LoopClock = .real, ownerOnly: Bool = false) throws(ServeError) {
        let (fd, bound) = try Self.bind(requested, ownerOnly: ownerOnly)
        do {
            loop = try EventLoop(label: "sim-serve-listen", clock: clock)
        } catch {
            Glibc.close(fd)
            throw ServeError("\(requested): cannot start its event loop: \(error)")
        }
        self.fd = fd
        self.address = bound
    }

    /// Calls `onAccept` on the listener's loop with each accepted descriptor (non-blocking; the callee owns it).
    package func start(onAccept: @escaping @Sendable (Int32) -> Void) {
        let fd = fd
        let address = address
        loop.watch(fd: fd) {
            while true {
                let client = POSIX.acceptConnection(fd)
                if client < 0 { return } // EAGAIN: all taken; anything else: the listener is closing
                if case .tcp = address {
                    SocketOptions.setNoDelay(client)
                    SocketOptions.setKeepAlive(client)
                }
                onAccept(client)
            }
        }
    }

    /// Stops accepting, closes the socket and removes a Unix socket's file. Idempotent.
    package func close() {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        loop.unwatch()
        loop.shutdown()
        Glibc.close(fd)
        if case .unix(let path) = address { unlink(path) }
    }

    deinit { close() }

    private static func bind(_ address: ServeAddress, ownerOnly: Bool) throws(ServeError) -> (Int32, ServeAddress) {
        switch address {
        case .unix(let path): return (try bindUnix(path, ownerOnly: ownerOnly), address)
        case .tcp(let host, let port): return try bindTCP(host: host, port: port)
        }
    }

    private static func bindUnix(_ path: String, ownerOnly: Bool) throws(ServeError) -> Int32 {
        if SocketOptions.isLiveUnixSocket(path) {
            throw ServeError("unix:\(path): another server already listens there")
        }
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else {
                throw ServeError("unix:\(path): the path exists and is not a socket; not replacing it", usage: true)
            }
            unlink(path) // a stale socket file
        }
        let fd = POSIX.streamSocket(family: AF_UNIX)
        guard fd >= 0 else { throw ServeError("unix:\(path): socket() failed: \(POSIX.describe(errno))") }
        let result = SocketAddress.unix(path: path).withSockaddr { Glibc.bind(fd, $0, $1) } ?? -1
        // Before listen(2): nobody else connects in between.
        guard result == 0, !ownerOnly || chmod(path, 0o600) == 0, listen(fd, 16) == 0 else {
            let code = errno
            Glibc.close(fd)
            if result == 0 { unlink(path) } // bound, so the file is ours
            throw ServeError("unix:\(path): cannot listen there: \(POSIX.describe(code))")
        }
        POSIX.setNonBlocking(fd)
        return fd
    }

    private static func bindTCP(host: String, port: UInt16) throws(ServeError) -> (Int32, ServeAddress) {
        let requested = ServeAddress.tcp(host: host, port: port)
        let fd = POSIX.streamSocket(family: requested.socketAddress.family)
        guard fd >= 0 else { throw ServeError("\(requested): socket() failed: \(POSIX.describe(errno))") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard let result = requested.socketAddress.withSockaddr({ Glibc.bind(fd, $0, $1) }) else {
            Glibc.close(fd)
            throw ServeError("\(requested): '\(host)' is not a numeric loopback address", usage: true)
        }
        guard result == 0, listen(fd, 16) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw ServeError("\(requested): cannot listen there: \(POSIX.describe(code))")
        }
        POSIX.setNonBlocking(fd)
        return (fd, .tcp(host: host, port: SocketOptions.boundPort(fd) ?? port))
    }
}
