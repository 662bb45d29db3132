@testable import SocketServing
@testable import AirServer
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What the listening socket both servers accept on sets on an accepted connection.
@Suite struct ListeningSocketTests {
    /// TCP keepalive, so that a host that vanished (powered off, its network gone) does not hold its
    /// connection — and `hil serve`'s controller — for ever.
    @Test func anAcceptedTCPConnectionHasKeepalive() async throws {
        let listener = try ListeningSocket(.tcp(host: "127.0.0.1", port: 0))
        defer { listener.close() }
        guard case .tcp(_, let port) = listener.address else { Issue.record("not tcp: \(listener.address)"); return }
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        let accepted = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            listener.start { fd in continuation.resume(returning: fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            #expect(connected == 0)
        }
        defer { close(accepted) }
        func option(_ level: Int32, _ name: Int32) -> Int32 {
            var value: Int32 = -1
            var length = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(accepted, level, name, &value, &length) == 0 ? value : -1
        }
        #expect(option(SOL_SOCKET, SO_KEEPALIVE) == 1)
        #expect(option(Int32(IPPROTO_TCP), TCP_KEEPIDLE) == SocketOptions.KeepAlive.idle)
        #expect(option(Int32(IPPROTO_TCP), TCP_KEEPINTVL) == SocketOptions.KeepAlive.interval)
        #expect(option(Int32(IPPROTO_TCP), TCP_KEEPCNT) == SocketOptions.KeepAlive.probes)
        #expect(option(Int32(IPPROTO_TCP), TCP_NODELAY) == 1)
    }
}
