import HCIPackets
import HostCore
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

    /// The two-controller world and an observer that only scans.
    static let withObserver: SimulatedWorldDescription = {
        var description = SimulatedWorldFixture.twoControllers
        description.controllers.append(.init(name: "observer", address: BDAddress(0x00_5A_1D_00_00_03)))
        return description
    }()

    /// A pending connection completes at the target's first advertising event once it starts advertising: the
    /// initiator answers the first connectable advertising PDU it hears with CONNECT_IND (Core v5.4 Vol 6 Part B
    /// §4.4.4), so the central's LE Connection Complete comes at exactly the instant an observer hears that
    /// event, which is advDelay (0–10 ms, §4.4.2.2.1) after advertising was enabled.
    @Test func aPendingConnectionCompletesWhenTheTargetStartsAdvertising() async throws {
        try await SimulatedWorldFixture.with(Self.withObserver, hosts: ["central", "peripheral", "observer"]) { world, hosts in
            let clock = world.air.clock
            let (central, peripheral, observer) = (hosts[0], hosts[1], hosts[2])
            let target = try #require(await peripheral.controllerInfo?.address)
            let heard = try await observer.expect("the target's first advertising report", timeout: .seconds(2)) { event -> ContinuousClock.Instant? in
                guard case .hci(.le(.advertisingReports(let reports))) = event, reports.contains(where: { $0.address == target }) else { return nil }
                return clock.now
            }
            try await observer.send(LESetScanParameters(type: .passive))
            try await observer.send(LESetScanEnable(true))
            let onCentral = try await HostScenarios.expectConnectionComplete(central, "the central")
            // Its Command Status has come: the attempt is pending, with nobody advertising.
            try await central.send(LECreateConnection(peerAddress: target, peerAddressType: .public))
            #expect(await central.connections.isEmpty)
            let start = clock.now
            try await HostScenarios.advertise(peripheral, name: "HIL-Late", interval: 0x0020)
            let complete = try await central.wait(for: onCentral)
            let connected = clock.now
            #expect(complete.status == .success && complete.role == .central)
            let firstEvent = try await observer.wait(for: heard)
            #expect(connected == firstEvent, "connected \(firstEvent.duration(to: connected)) after the first advertising event")
            #expect(start.duration(to: connected) <= .milliseconds(10), "the first advertising event came \(start.duration(to: connected)) after the enable")
        }
    }

    @Test func cancelWithNothingPendingIsDisallowed() async throws {
        try await SimulatedWorldFixture.with(hosts: ["central"]) { _, hosts in
            let status = try await HostScenarios.status(of: LECreateConnectionCancel(), on: hosts[0])
            #expect(status == .commandDisallowed)
        }
    }
}
