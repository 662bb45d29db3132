import Roles
import HILTesting
import Testing

extension StandardSuites {
    /// Power-cycle the accessory; its first advertising report must arrive within the rig's budget.
    @Suite(.requiresPowerSwitch) struct AdvertisingAfterPowerOn {
        @Test(arguments: BenchAccessories.names)
        func firstReportWithinBudget(accessory: String) async throws {
            try await HILCase.run(accessory: accessory) { bench in
                try await bench.power(false)
                try await bench.power(true)
                let clock = bench.clock
                let start = clock.now
                let found = try await bench.findAccessory(timeout: bench.rig.budgets.advertisingAfterPowerOn)
                let took = start.duration(to: clock.now)
                bench.measure("first advertising report after power-on", took, budget: bench.rig.budgets.advertisingAfterPowerOn)
                #expect(took <= bench.rig.budgets.advertisingAfterPowerOn)
                #expect(found.isConnectable)
            }
        }
    }
}
