import HCI
import Simulation
import Testing

/// LE Create Connection toward a device that does not accept stays pending, as on a real radio, until
/// LE Create Connection Cancel: Command Complete (0x00), then LE Connection Complete with 0x02.
@Suite struct PendingConnectionTests {
    static func expectPendingThenCancel(_ central: HCIHost, target: BDAddress) async throws {
        let complete = try await HostScenarios.expectConnectionComplete(central, "the central", timeout: .milliseconds(300))
        try await central.send(LECreateConnection(peerAddress: target, peerAddressType: .public))
        #expect(try await HostScenarios.valueOrTimeout(complete, on: central) == nil, "the connection did not stay pending")
        let cancelled = try await HostScenarios.expectConnectionComplete(central, "the central after the cancel")
        #expect(try await HostScenarios.status(of: LECreateConnectionCancel(), on: central) == .success)
        let failed = try await central.wait(for: cancelled)
        #expect(failed.status == .unknownConnectionIdentifier)
        #expect(await central.connections.isEmpty)
    }

    @Test func connectingToANonAdvertiserStaysPendingUntilCancelled() async throws {
        try await SimulatedWorldFixture.with(hosts: ["central", "peripheral"]) { world, hosts in
            let target = try #require(await hosts[1].controllerInfo?.address)
            try await Self.expectPendingThenCancel(hosts[0], target: target)
            #expect(await world.air.statistics().initiators == 0)
        }
    }

    @Test func anAdvertiserThatRefusesConnectionsIsSeenButNeverConnects() async throws {
        var description = SimulatedWorldFixture.twoControllers
        description.controllers[1].faults = [.refusesConnections]
        try await SimulatedWorldFixture.with(description, hosts: ["central", "peripheral"]) { _, hosts in
            let (central, accessory) = (hosts[0], hosts[1])
            let target = try #require(await accessory.controllerInfo?.address)
            try await HostScenarios.advertise(accessory, name: "HIL-Stuck")
            let seen = try await AdvertisingTests.scan(central, for: target, duration: .seconds(1), limit: 1)
            #expect(seen.count == 1)
            try await Self.expectPendingThenCancel(central, target: target)
        }
    }

    /// A pending connection completes at the target's first advertising event once it starts advertising: on
    /// virtual time, within one 20 ms interval plus advDelay (≤ 10 ms) and the commands' own time on the air.
    @Test func aPendingConnectionCompletesWhenTheTargetStartsAdvertising() async throws {
        try await SimulatedWorldFixture.with(SimulatedWorldFixture.onVirtualTime(), hosts: ["central", "peripheral"]) { _, hosts in
            let (central, peripheral) = (hosts[0], hosts[1])
            let target = try #require(await peripheral.controllerInfo?.address)
            let onCentral = try await HostScenarios.expectConnectionComplete(central, "the central")
            // Its Command Status has come: the attempt is pending, with nobody advertising.
            try await central.send(LECreateConnection(peerAddress: target, peerAddressType: .public))
            #expect(await central.connections.isEmpty)
            let start = central.loop.now
            try await HostScenarios.advertise(peripheral, name: "HIL-Late", interval: 0x0020)
            let complete = try await central.wait(for: onCentral)
            #expect(complete.status == .success && complete.role == .central)
            let took = start.duration(to: central.loop.now)
            #expect(took <= .milliseconds(50), "the connection completed \(took) after advertising began")
        }
    }

    @Test func cancelWithNothingPendingIsDisallowed() async throws {
        try await SimulatedWorldFixture.with(hosts: ["central"]) { _, hosts in
            let status = try await HostScenarios.status(of: LECreateConnectionCancel(), on: hosts[0])
            #expect(status == .commandDisallowed)
        }
    }
}
