import Roles
import HILTesting
import Testing

extension StandardSuites {
    /// The bond survives the accessory's power cycle: after it, the central encrypts with the stored LTK
    /// (LE Enable Encryption, no new pairing) and reads the protected value. An accessory that lost the
    /// bond answers 0x06 PIN or Key Missing; one that answers with a wrong key ends the link (0x3D MIC failure).
    /// The bond is first shown to work on a second link before the power cycle, so a key the accessory never
    /// kept is told apart from one it lost at the power cycle.
    @Suite(.requiresSecuredAccessory, .requiresPowerSwitch) struct BondSurvivesPowerCycle {
        @Test(arguments: BenchAccessories.securedNames)
        func reencryptsWithoutPairing(accessory: String) async throws {
            try await HILCase.run(accessory: accessory) { bench in
                try await bench.prepareSecureCentral()
                let first = try await bench.connect(to: try await bench.findAccessory(timeout: bench.rig.budgets.advertisingAfterPowerOn))
                let paired = try await bench.pair(first)
                try #require(paired.bonded, "the accessory did not ask to bond: nothing survives a power cycle")
                try await first.disconnect()
                let before = try await bench.connect(to: try await bench.findAccessory(timeout: bench.rig.budgets.reconnect))
                let stored = try #require(await bench.central.bond(for: before.peerAddress, type: before.peerAddressType))
                try await bench.encrypt(before, with: stored)
                try await before.disconnect()
                try await bench.power(false)
                try await bench.power(true)
                let found = try await bench.findAccessory(timeout: bench.rig.budgets.reconnect)
                let bond = try #require(await bench.central.bond(for: found.address, type: found.addressType),
                                        "no stored bond matches \(found.address) after the power cycle (identity \(paired.bond.peerAddress))")
                let again = try await bench.connect(to: found)
                try await bench.encrypt(again, with: bond)
                #expect(await again.lastPairing == nil, "the link paired again instead of using the bond")
                let value = try await bench.readProtected(again)
                #expect(throws: Never.self, "the protected value was refused after re-encryption") { try value.get() }
                try await again.disconnect()
            }
        }
    }
}
