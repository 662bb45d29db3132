#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileDescriptorTransport {
    /// Connects to an H4 server on a Unix stream socket (`unix:PATH`), e.g. btvirt's `/tmp/bt-server-le`.
    public static func unix(path: String, moniker: String, connectDeadline: Duration = .seconds(5)) throws(HCITransportError) -> FileDescriptorTransport {
        let address = SocketAddress.unix(path: path)
        guard path.utf8.count <= SocketAddress.unixPathLimit else {
            throw HCITransportError(.invalidMoniker, "\(moniker): socket path is \(path.utf8.count) bytes; the limit is \(SocketAddress.unixPathLimit)")
        }
        let fd = POSIX.streamSocket(family: AF_UNIX)
        guard fd >= 0 else { throw HCITransportError(.io, "\(moniker): socket() failed: \(POSIX.describe(errno))") }
        let result = address.withSockaddr { connect(fd, $0, $1) } ?? -1
        if result != 0 {
            let code = errno
            POSIX.closeFD(fd)
            switch code {
            case ENOENT: throw HCITransportError(.notFound, "\(moniker): no socket at \(path) (is the controller's server running?)")
            case ECONNREFUSED: throw HCITransportError(.notFound, "\(moniker): nothing listens on \(path) (a stale socket file?)")
            case EACCES, EPERM: throw HCITransportError(.permissionDenied, "\(moniker): permission denied on \(path)")
            default: throw HCITransportError(.io, "\(moniker): connect to \(path) failed: \(POSIX.describe(code))")
            }
        }
        return FileDescriptorTransport(moniker: moniker, fd: fd)
    }

    /// Connects to an H4 server over TCP (`tcp-client:HOST:PORT`), e.g. Rootcanal's HCI port 6402.
    ///
    /// Sets TCP_NODELAY and re-arms TCP_QUICKACK after every read, so an emulator that writes one packet
    /// in several writes does not stall ~44 ms on delayed ACKs; closes abortively (SO_LINGER 0), since
    /// btvirt's TCP server ignores a graceful FIN and keeps the controller alive.
    public static func tcp(host: String, port: UInt16, moniker: String, connectDeadline: Duration = .seconds(5)) throws(HCITransportError) -> FileDescriptorTransport {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw HCITransportError(.notFound, "\(moniker): cannot resolve host '\(host)': \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        let deadline = ContinuousClock.now.advanced(by: connectDeadline)
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = POSIX.streamSocket(family: info.pointee.ai_family)
            if fd < 0 { lastError = POSIX.describe(errno); continue }
            POSIX.setNonBlocking(fd)
            var result = connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen)
            if result != 0 && errno == EINPROGRESS {
                if POSIX.wait(fd: fd, events: Int16(POLLOUT), until: deadline) {
                    var soError: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &length)
                    result = soError == 0 ? 0 : -1
                    errno = soError
                } else {
                    POSIX.closeFD(fd)
                    throw HCITransportError(.timeout, "\(moniker): no TCP connection to \(host):\(port) after \(connectDeadline)")
                }
            }
            if result != 0 {
                let code = errno
                lastError = POSIX.describe(code)
                POSIX.closeFD(fd)
                continue
            }
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            return FileDescriptorTransport(moniker: moniker, fd: fd, afterRead: { fd in
                #if os(Linux)
                var one: Int32 = 1
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_QUICKACK, &one, socklen_t(MemoryLayout<Int32>.size))
                #endif
            }, beforeClose: { fd in
                var option = linger(l_onoff: 1, l_linger: 0)
                setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
            })
        }
        throw HCITransportError(lastError.hasPrefix("ECONNREFUSED") ? .notFound : .io,
                                "\(moniker): cannot connect to \(host):\(port): \(lastError)")
    }
}
