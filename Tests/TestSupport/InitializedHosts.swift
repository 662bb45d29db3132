import HCITransports
import HostCore

/// Runs `body` with `count` hosts on the transports `open` gives for indices 0..<count, opened and
/// initialized (`HCIHost.initialize()`: HCI_Reset and the LE setup) one after another, as the emulated
/// controllers' listen backlogs want; closes every host it opened, whether `body` returns or throws.
/// A controller that does not initialize fails with a `PeerError` naming `peer` and its index.
/// The caller holds whatever lock keeps other tests off the peer's shared air.
public func withInitializedHosts<T: Sendable>(_ count: Int, peer: String, open: (_ index: Int) throws -> any HCITransport,
                                              _ body: ([HCIHost]) async throws -> T) async throws -> T {
    var hosts: [HCIHost] = []
    do {
        for index in 0..<count {
            let host = try HCIHost(transport: try open(index))
            hosts.append(host)
            do {
                try await host.initialize()
            } catch {
                throw PeerError("\(peer) controller \(index) did not initialize: \(error)")
            }
        }
        let result = try await body(hosts)
        for host in hosts { await host.close() }
        return result
    } catch {
        for host in hosts { await host.close() }
        throw error
    }
}
