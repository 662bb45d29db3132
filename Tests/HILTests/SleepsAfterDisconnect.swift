import Roles
import HILTesting
import Testing

extension StandardSuites {
    /// After a disconnect the accessory settles: from `after_ms` past the central's Disconnection Complete, over
    /// `window_ms`, its average current (from the meter on its supply) stays within `energy.idleAfterDisconnect`.
    @Suite(.requiresEnergyBudget("idleAfterDisconnect") { $0.idleAfterDisconnect != nil }) struct SleepsAfterDisconnect {
        @Test(arguments: BenchAccessories.meteredNames)
        func averageCurrentAfterDisconnectWithinBudget(accessory: String) async throws {
            try await HILCase.run(accessory: accessory) { bench in
                guard let budget = try bench.energyBudgets().idleAfterDisconnect else { return }
                let link = try await bench.connect(to: try await bench.findAccessory(timeout: bench.rig.budgets.advertisingAfterPowerOn))
                let reason = try await link.disconnect()
                let disconnected = bench.clock.now
                bench.mark(.connection, "Disconnection Complete \(reason)")
                try await Task.sleep(for: budget.after + budget.window, clock: bench.clock)
                let start = disconnected.advanced(by: budget.after)
                let figures = try await bench.energy(from: start, to: start.advanced(by: budget.window))
                bench.mark(.power, "idle after disconnect", duration: budget.window)
                bench.measure("average current idle after disconnect", value: figures.averageMicroamperes, unit: "µA", budget: budget.maximumMicroamperes)
                #expect(figures.averageMicroamperes <= budget.maximumMicroamperes,
                        "idle after disconnect: averaged \(figures.averageMicroamperes) µA over \(budget.window) from \(budget.after) after the disconnect; budget \(budget.maximumMicroamperes) µA")
            }
        }
    }
}
