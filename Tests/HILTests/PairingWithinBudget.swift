import Roles
import HILTesting
import Testing

extension StandardSuites {
    /// The accessory pairs with the method its rig declares, within the pairing budget; the link is then
    /// encrypted (authenticated for every method but Just Works) and the protected value can be read.
    @Suite(.requiresSecuredAccessory) struct PairingWithinBudget {
        @Test(arguments: BenchAccessories.securedNames)
        func pairsWithDeclaredMethod(accessory: String) async throws {
            try await HILCase.run(accessory: accessory) { bench in
                let security = try bench.accessorySecurity()
                try await bench.prepareSecureCentral()
                let link = try await bench.connect(to: try await bench.findAccessory(timeout: bench.rig.budgets.advertisingAfterPowerOn))
                let result = try await bench.pair(link)
                #expect(result.method.name == security.method, "paired with \(result.method), the rig declares \(security.method)")
                #expect(result.secureConnections == !security.legacy)
                let linkSecurity = await link.security
                #expect(linkSecurity.encrypted)
                #expect(linkSecurity.authenticated == (security.method != "just-works"))
                let value = try await bench.readProtected(link)
                #expect(throws: Never.self, "the protected value was refused on the paired link") { try value.get() }
                try await link.disconnect()
            }
        }
    }
}
