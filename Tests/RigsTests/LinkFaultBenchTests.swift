import HCIPackets
import Roles
import Rigs
import Throughput
import Testing

/// The simulated accessories of rigs/checks/simulated-link-faults.json stream in Bumble's bench format, and
/// each link fault shows as the link-layer suites look for it: on the bench's virtual time.
@Suite struct LinkFaultBenchTests {
    /// Connects to `name`, exchanges the MTU (247), sets data length 251 and `phy`, finds the bench service.
    static func client(_ central: LEDevice, _ rig: Rig, _ name: String, phy: PHYPreference = .le2M) async throws -> BenchClient {
        let accessory = try #require(rig.accessory(named: name))
        let link = try await central.connect(matching: accessory.match, scanTimeout: .seconds(2), parameters: rig.connectionParameters)
        #expect(try await link.exchangeMTU(offering: 247) == 247)
        let length = try await link.setDataLength(octets: 251)
        #expect(length.transmit.octets == 251)
        _ = try await link.setPHY(phy)
        return try await BenchClient.find(on: link)
    }

    @Test("A steady accessory streams with no gap and acknowledges a written stream's last packet")
    func steadyStreamsBothWays() async throws {
        try await SimulatedRigRuntimeTests.session("rigs/checks/simulated-link-faults.json") { _, central, rig in
            let client = try await Self.client(central, rig, "steady")
            let notified = try await client.receive(for: .seconds(1))
            #expect(notified.packets > 100 && notified.sequenceGaps == 0)
            #expect(notified.bytes == notified.packets * 244, "every notification carries ATT_MTU − 3 = 244 octets")
            #expect(notified.phy == "2M" && notified.mtu == 247)
            let written = try await client.send(for: .milliseconds(500))
            #expect(written.acknowledged == true)
            #expect(written.bytes == written.packets * 244)
        }
    }

    @Test("An accessory that rejects LE 2M leaves the link on LE 1M; the initiator still hears PHY Update Complete")
    func rejectsTwoM() async throws {
        try await SimulatedRigRuntimeTests.session("rigs/checks/simulated-link-faults.json") { _, central, rig in
            let accessory = try #require(rig.accessory(named: "no-2m"))
            let link = try await central.connect(matching: accessory.match, scanTimeout: .seconds(2), parameters: rig.connectionParameters)
            let phy = try await link.setPHY(.le2M)
            #expect(phy == LinkPHY(transmitter: 1, receiver: 1))
        }
    }

    @Test("An accessory that breaks on a larger MTU sends nothing once the MTU has grown: the run fails naming the silence")
    func stopsWhenMTUGrows() async throws {
        try await SimulatedRigRuntimeTests.session("rigs/checks/simulated-link-faults.json") { _, central, rig in
            let client = try await Self.client(central, rig, "mtu-breaks")
            await #expect(throws: ThroughputError.self) { try await client.receive(for: .milliseconds(500), startTimeout: .seconds(1)) }
        }
    }

    @Test("An accessory that halves its rate carries about half of a steady one's bits per second on the same link")
    func halvesRate() async throws {
        try await SimulatedRigRuntimeTests.session("rigs/checks/simulated-link-faults.json") { _, central, rig in
            let steady = try await Self.client(central, rig, "steady").receive(for: .seconds(1))
            let halved = try await Self.client(central, rig, "half-rate").receive(for: .seconds(1))
            let ratio = halved.bitsPerSecond / steady.bitsPerSecond
            #expect(ratio > 0.4 && ratio < 0.6, "half-rate carried \(Int(halved.bitsPerSecond)) bit/s, steady \(Int(steady.bitsPerSecond)): ratio \(ratio)")
        }
    }
}
