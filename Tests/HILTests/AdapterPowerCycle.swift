import Roles
import HILTesting
import Testing

extension StandardSuites {
    /// Power-cycle the central adapter through its own switch port while connected: the host sees the
    /// adapter go (state poweredOff, the link ended), a new host finds it after power-on, the accessory
    /// times out its side and re-advertises, and reconnection succeeds within budget.
    @Suite(.requiresAdapterPowerSwitch, .requiresLinkLossReports) struct AdapterPowerCycle {
        @Test(arguments: BenchAccessories.names)
        func powerCycleThenReconnect(accessory: String) async throws {
            try await HILCase.run(accessory: accessory) { bench in
                let link = try await bench.connect(to: try await bench.findAccessory(timeout: bench.rig.budgets.advertisingAfterPowerOn))
                let oldHost = bench.central.host
                let clock = bench.clock
                let start = clock.now
                try await bench.powerCycleAdapter()
                #expect(await oldHost.state == .poweredOff)
                #expect(await link.isConnected == false)
                let again = try await bench.findAccessory(timeout: bench.rig.budgets.adapterReset + bench.rig.budgets.advertisingAfterPowerOn)
                let relink = try await bench.connect(to: again)
                bench.measure("reconnect after adapter power cycle", start.duration(to: clock.now), budget: bench.rig.budgets.adapterReset)
                try await relink.disconnect()
            }
        }
    }
}
