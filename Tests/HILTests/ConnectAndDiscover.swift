import HCI
import HILTesting
import Testing

extension StandardSuites {
    /// Connect, discover the GATT database, find the expected services, disconnect with 0x16 locally.
    @Suite struct ConnectAndDiscover {
        @Test(arguments: BenchAccessories.names)
        func expectedServicesPresent(accessory: String) async throws {
            try await HILCase.run(accessory: accessory) { bench in
                let found = try await bench.findAccessory(timeout: bench.rig.budgets.advertisingAfterPowerOn)
                let link = try await bench.connect(to: found)
                let tree = try await bench.discover(link)
                for uuid in bench.accessory?.expectedServices ?? [] {
                    #expect(tree.services.contains { $0.uuid == uuid }, "service \(uuid) missing from \(tree.services.map(\.uuid))")
                }
                let reason = try await link.disconnect()
                bench.mark(.connection, "Disconnection Complete \(reason)")
                #expect(reason == .connectionTerminatedByLocalHost)
            }
        }
    }
}
