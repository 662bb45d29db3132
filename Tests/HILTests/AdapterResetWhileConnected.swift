import HostCore
import HILTesting
import Testing

extension StandardSuites {
    /// HCI Reset of the central while connected: the host clears its connections (a Reset produces no
    /// Disconnection Complete), the state goes resetting → poweredOn, the accessory re-advertises (after
    /// its own supervision timeout) and reconnection succeeds within budget.
    @Suite(.requiresLinkLossReports, .requiresPeerSeeingAdapterReset) struct AdapterResetWhileConnected {
        @Test(arguments: BenchAccessories.names)
        func resetThenReconnect(accessory: String) async throws {
            try await HILCase.run(accessory: accessory) { bench in
                let link = try await bench.connect(to: try await bench.findAccessory(timeout: bench.rig.budgets.advertisingAfterPowerOn))
                let host = bench.central.host
                let events = await host.events()
                let clock = bench.clock
                let start = clock.now
                try await host.initialize()
                bench.mark(.adapter, "HCI Reset", duration: start.duration(to: clock.now))
                var states: [AdapterState] = []
                var cleared: [UInt16] = []
                for await event in events {
                    if case .stateChanged(let state) = event { states.append(state) }
                    if case .connectionsCleared(let handles, _) = event { cleared += handles }
                    if states.last == .poweredOn { break }
                }
                #expect(states == [.resetting, .poweredOn])
                #expect(cleared == [link.handle])
                #expect(await host.connections.isEmpty)
                #expect(await link.isConnected == false)
                let again = try await bench.findAccessory(timeout: bench.rig.budgets.adapterReset + bench.rig.budgets.advertisingAfterPowerOn)
                let relink = try await bench.connect(to: again)
                bench.measure("reconnect after adapter reset", start.duration(to: clock.now), budget: bench.rig.budgets.adapterReset)
                try await relink.disconnect()
            }
        }
    }
}
