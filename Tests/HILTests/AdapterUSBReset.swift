import Roles
import HILTesting
import Testing

extension StandardSuites {
    /// USB reset of the central adapter while connected: the host's transport closes (the link ends on
    /// our side at once), the adapter comes back and is reset, the accessory times out its side and
    /// re-advertises, and reconnection succeeds within budget.
    @Suite(.requiresAdapterUSBReset, .requiresLinkLossReports) struct AdapterUSBReset {
        @Test(arguments: BenchAccessories.names)
        func usbResetThenReconnect(accessory: String) async throws {
            try await HILCase.run(accessory: accessory) { bench in
                let link = try await bench.connect(to: try await bench.findAccessory(timeout: bench.rig.budgets.advertisingAfterPowerOn))
                let oldHost = bench.central.host
                let clock = bench.clock
                let start = clock.now
                let central = try await bench.resetAdapterUSB()
                #expect(await oldHost.state == .poweredOff)
                #expect(await link.isConnected == false)
                #expect(await central.host.state == .poweredOn)
                let again = try await bench.findAccessory(timeout: bench.rig.budgets.adapterReset + bench.rig.budgets.advertisingAfterPowerOn)
                let relink = try await bench.connect(to: again)
                bench.measure("reconnect after adapter USB reset", start.duration(to: clock.now), budget: bench.rig.budgets.adapterReset)
                try await relink.disconnect()
            }
        }
    }
}
