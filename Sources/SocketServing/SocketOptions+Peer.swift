#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who is on the other end of an accepted socket, for the lines that name a client.
extension SocketOptions {
    /// The process on the other end of a Unix socket, as the kernel recorded it at `connect(2)`
    /// (`SO_PEERCRED`); nil elsewhere.
    static func peerCredentials(_ fd: Int32) -> (pid: Int32, uid: UInt32)? {
        #if os(Linux)
        // struct ucred (<sys/socket.h> with _GNU_SOURCE): pid_t pid; uid_t uid; gid_t gid.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, credentials.pid > 0 else { return nil }
        return (credentials.pid, credentials.uid)
        #else
        return nil
        #endif
    }

    /// `from 127.0.0.1:40312` for a TCP client, `(pid 4711, uid 1000)` for a Unix one, or "" when the
    /// kernel does not say.
    package static func describePeer(_ fd: Int32) -> String {
        if let address = peerAddress(fd) { return "from \(address)" }
        if let credentials = peerCredentials(fd) { return "(pid \(credentials.pid), uid \(credentials.uid))" }
        return ""
    }
}
