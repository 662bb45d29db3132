import HCIPackets
// Where a device keeps its bonds.

/// A device's bonds (Core v5.4 Vol 3 Part C §9.4.4): kept across connections, looked up by the peer's
/// identity (or a private address its IRK resolves) and, for legacy keys, by EDIV and Rand.
public protocol BondStorage: Sendable {
    /// Every bond, in a stable order.
    func bonds() async -> [Bond]
    /// Keeps `bond`, replacing one with the same peer identity.
    func save(_ bond: Bond) async throws(SecurityError)
    /// Forgets the bond with `peer`; false when there was none.
    func forget(peer: BDAddress) async throws(SecurityError) -> Bool
}

/// Bonds held in memory: a simulated accessory's flash, or a test's store.
public actor InMemoryBondStore: BondStorage {
    var stored: [Bond]

    public init(_ bonds: [Bond] = []) { stored = bonds }

    public func bonds() -> [Bond] { stored }

    public func save(_ bond: Bond) {
        stored.removeAll { $0.peerAddress == bond.peerAddress }
        stored.append(bond)
    }

    public func forget(peer: BDAddress) -> Bool {
        let before = stored.count
        stored.removeAll { $0.peerAddress == peer }
        return stored.count != before
    }

    /// Forgets every bond (an accessory whose flash is wiped).
    public func forgetAll() { stored.removeAll() }
}
