import HCIPackets
import Roles
import HILTesting
import Testing

extension StandardSuites {
    /// LE Set Data Length and LE Set PHY from the central reach what the rig declares, each within the update
    /// budget, and the link keeps them while it carries traffic (GATT discovery) for a supervision timeout.
    @Suite(.requiresLink("a data length or PHY", { $0.dataLength != nil || $0.phy != nil })) struct LinkDataLengthAndPHY {
        @Test(arguments: BenchAccessories.linkNames { $0.dataLength != nil || $0.phy != nil })
        func updatesCompleteAndStay(accessory: String) async throws {
            let bench = try await HILCase.open(accessory: accessory)
            let declared = try bench.accessoryLink()
            let link = try await bench.connect(to: try await bench.findAccessory(timeout: bench.rig.budgets.advertisingAfterPowerOn))
            if let octets = declared.dataLength {
                let started = bench.clock.now
                let length = try await link.setDataLength(octets: UInt16(octets), timeout: declared.update)
                bench.mark(.connection, "data length \(length)", duration: started.duration(to: bench.clock.now))
                #expect(Int(length.transmit.octets) >= octets, "data length \(length); the rig declares \(octets) octets")
            }
            if let phy = declared.phy {
                let started = bench.clock.now
                let settled = try await link.setPHY(phy, timeout: declared.update)
                bench.measure("PHY update", started.duration(to: bench.clock.now), budget: declared.update)
                bench.mark(.connection, "PHY \(settled)")
                #expect(settled.transmitter == phy.phy && settled.receiver == phy.phy, "the link is \(settled); the rig declares \(LinkPHY.name(phy.phy))")
            }
            let phy = await link.phy, length = await link.dataLength
            _ = try await bench.discover(link)
            let supervision = Duration.milliseconds(Int64(await link.supervisionTimeout) * 10)
            try? await Task.sleep(for: supervision, clock: bench.clock)
            let connected = await link.isConnected, phyAfter = await link.phy, lengthAfter = await link.dataLength
            #expect(connected, "the link ended after the updates")
            #expect(phyAfter == phy, "the PHY changed from \(phy) to \(phyAfter) while the link carried traffic")
            #expect(lengthAfter == length, "the data length changed from \(length) to \(lengthAfter)")
            try await link.disconnect()
        }
    }
}
