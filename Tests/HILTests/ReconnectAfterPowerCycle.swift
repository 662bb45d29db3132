import Roles
import HILTesting
import Testing

extension StandardSuites {
    /// After a power cycle the accessory advertises again and accepts a connection within budget, with an
    /// unchanged GATT database (same Database Hash where it has one; same services otherwise).
    @Suite(.requiresPowerSwitch) struct ReconnectAfterPowerCycle {
        @Test(arguments: BenchAccessories.names)
        func sameDatabaseAfterReconnect(accessory: String) async throws {
            try await HILCase.run(accessory: accessory) { bench in
                let before = try await bench.connect(to: try await bench.findAccessory(timeout: bench.rig.budgets.advertisingAfterPowerOn))
                let first = try await bench.discover(before)
                try await before.disconnect()
                try await bench.power(false)
                try await bench.power(true)
                let clock = bench.clock
                let start = clock.now
                let after = try await bench.connect(to: try await bench.findAccessory(timeout: bench.rig.budgets.reconnect))
                let took = start.duration(to: clock.now)
                bench.measure("reconnect after power-on", took, budget: bench.rig.budgets.reconnect)
                #expect(took <= bench.rig.budgets.reconnect)
                let second = try await bench.discover(after)
                if let hash = first.databaseHash {
                    #expect(second.databaseHash == hash, "Database Hash changed across the power cycle")
                } else {
                    #expect(second.services.map(\.uuid) == first.services.map(\.uuid))
                }
                try await after.disconnect()
            }
        }
    }
}
