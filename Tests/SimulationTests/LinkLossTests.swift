import HCIPackets
import Simulation
import Testing

/// A peer that vanishes is reported as a real radio reports it: Connection Timeout (0x08) exactly one
/// supervision timeout after the survivor last heard it (Core v5.4 Vol 6 Part B §4.5.2: the supervision timer
/// restarts at each packet received, and the link is lost when it reaches connSupervisionTimeout).
///
/// On virtual time the instant is exact: each test makes the survivor hear its peer at a connection event (a
/// PDU crossing the link), cuts the peer off at that very instant, and finds the loss reported one supervision
/// timeout later to the nanosecond. The link's supervision timeout is a whole number of its intervals, so the
/// timer runs out at a connection event, where the survivor's link layer notices the silence.
@Suite struct LinkLossTests {
    /// 20 ms interval, 200 ms supervision timeout (ten intervals): short, in realistic ratio.
    static let link = ConnectionParameters(intervalMin: 0x0010, intervalMax: 0x0010, latency: 0, supervisionTimeout: 0x0014)
    static let supervisionTimeout = Duration.milliseconds(200)

    @Test(arguments: ["peripheral", "central"])
    func peerPowerOffIsAConnectionTimeoutAfterTheSupervisionTimeout(victim: String) async throws {
        try await ConnectedPair.with(connection: Self.link) { pair in
            let clock = pair.world.air.clock
            let (survivor, gone) = victim == "peripheral" ? (pair.central, pair.peripheral) : (pair.peripheral, pair.central)
            let handle = victim == "peripheral" ? pair.centralHandle : pair.peripheralHandle
            let lost = try await HostScenarios.expectDisconnection(survivor, handle: handle, "the survivor", timeout: .seconds(2))
            try await pair.hear(from: victim)
            let cut = clock.now // the survivor last heard its peer at this connection event
            await pair.world.controller(named: victim)?.powerOff()
            let reason = try await survivor.wait(for: lost)
            #expect(reason == .connectionTimeout)
            #expect(cut.duration(to: clock.now) == Self.supervisionTimeout, "0x08 after \(cut.duration(to: clock.now))")
            // The powered-off side's host saw its transport close, as when a dongle is unplugged.
            #expect(await gone.state == .poweredOff)
            #expect(await gone.closedReason?.kind == .closedByPeer)
            let stats = await pair.world.air.statistics()
            #expect(stats.links == 0 && stats.armedTimers == 0 && stats.handles == 0)
        }
    }

    @Test func peerResetTimesOutThePeerAndTellsTheResetSideNothing() async throws {
        try await ConnectedPair.with(connection: Self.link) { pair in
            let clock = pair.world.air.clock
            let lost = try await HostScenarios.expectDisconnection(pair.central, handle: pair.centralHandle, "the central")
            let resetSide = try await pair.peripheral.expect("a Disconnection Complete on the reset side", timeout: .milliseconds(400)) { event -> HCIStatus? in
                if case .hci(.disconnectionComplete(let complete)) = event { return complete.reason }
                return nil
            }
            try await pair.hear(from: "peripheral")
            // The Reset reaches the controller at this instant (a command takes no time on the world's clock).
            let reset = clock.now
            try await pair.peripheral.send(Reset())
            #expect(try await pair.central.wait(for: lost) == .connectionTimeout)
            #expect(reset.duration(to: clock.now) == Self.supervisionTimeout, "0x08 after \(reset.duration(to: clock.now))")
            try await pair.peripheral.initialize()
            #expect(try await HostScenarios.valueOrTimeout(resetSide, on: pair.peripheral) == nil)
            #expect(await pair.peripheral.connections.isEmpty)
            #expect(await pair.peripheral.state == .poweredOn)
        }
    }

    /// A Disconnect toward a peer that has gone is never acknowledged; it ends at the supervision timeout
    /// with the local host's reason (0x16).
    @Test func disconnectTowardAVanishedPeerEndsAtTheSupervisionTimeout() async throws {
        try await ConnectedPair.with(connection: Self.link) { pair in
            let clock = pair.world.air.clock
            try await pair.hear(from: "peripheral")
            let start = clock.now
            await pair.world.controller(named: "peripheral")?.powerOff()
            let reason = try await pair.central.disconnect(handle: pair.centralHandle, timeout: .seconds(2))
            #expect(reason == .connectionTerminatedByLocalHost)
            #expect(start.duration(to: clock.now) == Self.supervisionTimeout, "0x16 after \(start.duration(to: clock.now))")
        }
    }
}
