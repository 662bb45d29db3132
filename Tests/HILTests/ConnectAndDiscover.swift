import Roles
import HILTesting
import Testing

extension StandardSuites {
    /// Connect, discover the GATT database, find the expected services, subscribe to what notifies (as an
    /// app does) and see the link stay up for a supervision timeout, disconnect with 0x16 locally.
    @Suite struct ConnectAndDiscover {
        @Test(arguments: BenchAccessories.names)
        func expectedServicesPresent(accessory: String) async throws {
            let bench = try await HILCase.open(accessory: accessory)
            let found = try await bench.findAccessory(timeout: bench.rig.budgets.advertisingAfterPowerOn)
            let link = try await bench.connect(to: found)
            let tree = try await bench.discover(link)
            for uuid in bench.accessory?.expectedServices ?? [] {
                #expect(tree.services.contains { $0.uuid == uuid }, "service \(uuid) missing from \(tree.services.map(\.uuid))")
            }
            for characteristic in tree.characteristics where characteristic.properties.contains(.notify) {
                _ = try await link.gatt.subscribe(to: characteristic)
                bench.mark(.discovery, "subscribed to \(characteristic.uuid)")
            }
            let supervision = Duration.milliseconds(Int64(await link.supervisionTimeout) * 10)
            let watch = bench.clock.now
            let lost = try? await link.waitForDisconnection(timeout: supervision + bench.rig.budgets.linkLossMargin)
            bench.mark(.connection, "link watched for a supervision timeout", duration: watch.duration(to: bench.clock.now))
            if let lost {
                bench.mark(.connection, "link lost after subscribing: \(lost)", failure: true)
                Issue.record("the link dropped after subscribing: \(lost)")
                return
            }
            let reason = try await link.disconnect()
            bench.mark(.connection, "Disconnection Complete \(reason)")
            #expect(bench.rig.localDisconnectReasons.contains(reason), "local reason \(reason), expected one of \(bench.rig.localDisconnectReasons)")
        }
    }
}
