import Roles
import HILTesting
import Testing

extension StandardSuites {
    /// Encryption is re-established after an HCI Reset of the central: the controller forgets the link
    /// and its key, the host keeps the bond, and the reconnected link encrypts with the stored LTK.
    @Suite(.requiresSecuredAccessory, .requiresLinkLossReports, .requiresPeerSeeingAdapterReset) struct EncryptionAfterAdapterReset {
        @Test(arguments: BenchAccessories.securedNames)
        func reencryptsAfterReset(accessory: String) async throws {
            try await HILCase.run(accessory: accessory) { bench in
                try await bench.prepareSecureCentral()
                let link = try await bench.connect(to: try await bench.findAccessory(timeout: bench.rig.budgets.advertisingAfterPowerOn))
                let paired = try await bench.pair(link)
                try #require(paired.bonded, "the accessory did not ask to bond")
                let clock = bench.clock
                let start = clock.now
                try await bench.central.host.initialize()
                bench.mark(.adapter, "HCI Reset", duration: start.duration(to: clock.now))
                #expect(await link.isConnected == false)
                let found = try await bench.findAccessory(timeout: bench.rig.budgets.adapterReset + bench.rig.budgets.advertisingAfterPowerOn)
                let bond = try #require(await bench.central.bond(for: found.address, type: found.addressType))
                let again = try await bench.connect(to: found)
                try await bench.encrypt(again, with: bond)
                #expect(await again.security.encrypted)
                let value = try await bench.readProtected(again)
                #expect(throws: Never.self, "the protected value was refused after re-encryption") { try value.get() }
                try await again.disconnect()
            }
        }
    }
}
