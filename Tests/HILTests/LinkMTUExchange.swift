import Roles
import HILTesting
import Testing

extension StandardSuites {
    /// The central's Exchange MTU, offering the MTU the rig declares, settles on that MTU within the update
    /// budget (Core v5.4 Vol 3 Part F §3.4.2: the smaller of the two Rx MTUs).
    @Suite(.requiresLink("an MTU", { $0.mtu != nil })) struct LinkMTUExchange {
        @Test(arguments: BenchAccessories.linkNames { $0.mtu != nil })
        func reachesDeclaredMTU(accessory: String) async throws {
            let bench = try await HILCase.open(accessory: accessory)
            let declared = try bench.accessoryLink()
            let link = try await bench.connect(to: try await bench.findAccessory(timeout: bench.rig.budgets.advertisingAfterPowerOn))
            let started = bench.clock.now
            let mtu = try await link.exchangeMTU(offering: declared.mtu)
            bench.measure("MTU exchange", started.duration(to: bench.clock.now), budget: declared.update)
            bench.mark(.connection, "ATT_MTU \(mtu)")
            #expect(mtu == declared.mtu, "Exchange MTU settled on \(mtu); the rig declares \(declared.mtu ?? 0)")
            #expect(started.duration(to: bench.clock.now) <= declared.update, "the exchange took longer than its budget")
            try await link.disconnect()
        }
    }
}
