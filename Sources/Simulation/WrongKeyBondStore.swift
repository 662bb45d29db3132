import HCIPackets
import SMP

/// The bond store of an accessory with the wrong-LTK fault: it holds the real bonds, but hands out each
/// bond's key with its octets inverted, so a reconnecting central's encryption ends in a MIC failure.
actor WrongKeyBondStore: BondStorage {
    let stored: any BondStorage

    init(_ stored: any BondStorage) { self.stored = stored }

    func bonds() async -> [Bond] {
        await stored.bonds().map { bond in
            var wrong = bond
            wrong.localLongTermKey?.key = bond.localLongTermKey?.key.map { ~$0 } ?? []
            return wrong
        }
    }

    func save(_ bond: Bond) async throws(SecurityError) { try await stored.save(bond) }

    func forget(peer: BDAddress) async throws(SecurityError) -> Bool { try await stored.forget(peer: peer) }
}
