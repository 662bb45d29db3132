import Roles
import HILTesting
import Testing

extension StandardSuites {
    /// One advertising event's charge, over `window_ms` centred on the advertising report the central hears
    /// first after power-on (the meter on the accessory's supply), stays within `energy.advertisingEvent`.
    @Suite(.requiresEnergyBudget("advertisingEvent") { $0.advertisingEvent != nil }) struct AdvertisingEventCharge {
        @Test(arguments: BenchAccessories.meteredNames)
        func advertisingEventChargeWithinBudget(accessory: String) async throws {
            try await HILCase.run(accessory: accessory) { bench in
                guard let budget = try bench.energyBudgets().advertisingEvent else { return }
                _ = try await bench.findAccessory(timeout: bench.rig.budgets.advertisingAfterPowerOn)
                let heard = bench.clock.now
                try await Task.sleep(for: budget.window / 2, clock: bench.clock)
                let figures = try await bench.energy(from: heard.advanced(by: .zero - budget.window / 2), to: heard.advanced(by: budget.window / 2))
                bench.mark(.advertising, "advertising event", duration: budget.window)
                bench.measure("advertising event charge", value: figures.chargeMicrocoulombs, unit: "µC", budget: budget.maximumMicrocoulombs)
                #expect(figures.chargeMicrocoulombs <= budget.maximumMicrocoulombs,
                        "advertising event: \(figures.chargeMicrocoulombs) µC over \(budget.window) around the report heard; budget \(budget.maximumMicrocoulombs) µC")
            }
        }
    }
}
