import Roles
import HILTesting
import Testing

extension StandardSuites {
    /// Cut the accessory's power while connected: the central must see the link drop with a remote-loss
    /// reason (0x08 Connection Timeout on a real radio) within the supervision timeout plus margin, stay
    /// poweredOn, and keep no stale handle.
    @Suite(.requiresPowerSwitch, .requiresLinkLossReports) struct PowerOffWhileConnected {
        @Test(arguments: BenchAccessories.names)
        func linkDropIsSeen(accessory: String) async throws {
            let bench = try await HILCase.open(accessory: accessory)
            let found = try await bench.findAccessory(timeout: bench.rig.budgets.advertisingAfterPowerOn)
            let link = try await bench.connect(to: found)
            let supervision = Duration.milliseconds(Int64(await link.supervisionTimeout) * 10)
            let clock = bench.clock
            let cut = clock.now
            try await bench.power(false)
            let limit = supervision + bench.rig.budgets.linkLossMargin
            let reason = try await link.waitForDisconnection(timeout: limit)
            let took = cut.duration(to: clock.now)
            bench.mark(.connection, "Disconnection Complete \(reason)", duration: took)
            bench.measure("link loss reported", took, budget: limit)
            #expect(bench.rig.remoteLossReasons.contains(reason), "reason \(reason), expected one of \(bench.rig.remoteLossReasons)")
            #expect(await bench.central.host.state == .poweredOn)
            #expect(await bench.central.host.connections[link.handle] == nil, "stale handle 0x\(String(link.handle, radix: 16))")
            try await bench.power(true)
        }
    }
}
