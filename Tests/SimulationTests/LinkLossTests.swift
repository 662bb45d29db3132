import HCI
import Simulation
import Testing

/// A peer that vanishes is reported as a real radio reports it: Connection Timeout (0x08) after the
/// link's supervision timeout, never before.
@Suite struct LinkLossTests {
    static let supervisionTimeout = Duration.milliseconds(200) // ConnectedPair.fastLink
    static let interval = Duration.milliseconds(30)

    @Test(arguments: ["peripheral", "central"])
    func peerPowerOffIsAConnectionTimeoutAfterTheSupervisionTimeout(victim: String) async throws {
        try await ConnectedPair.with { pair in
            let (survivor, gone) = victim == "peripheral" ? (pair.central, pair.peripheral) : (pair.peripheral, pair.central)
            let handle = victim == "peripheral" ? pair.centralHandle : pair.peripheralHandle
            let lost = try await HostScenarios.expectDisconnection(survivor, handle: handle, "the survivor", timeout: .seconds(2))
            let cut = ContinuousClock.now // before the cut: a sound lower bound for the time to 0x08
            await pair.world.controller(named: victim)?.powerOff()
            let reason = try await survivor.wait(for: lost)
            let elapsed = cut.duration(to: .now)
            #expect(reason == .connectionTimeout)
            #expect(elapsed >= Self.supervisionTimeout, "0x08 after \(elapsed), before the supervision timeout")
            #expect(elapsed < Self.supervisionTimeout + Self.interval + .milliseconds(250), "0x08 only after \(elapsed)")
            // The powered-off side's host saw its transport close, as when a dongle is unplugged.
            #expect(await gone.state == .poweredOff)
            #expect(await gone.closedReason?.kind == .closedByPeer)
            let stats = await pair.world.air.statistics()
            #expect(stats.links == 0 && stats.armedTimers == 0 && stats.handles == 0)
        }
    }

    @Test func peerResetTimesOutThePeerAndTellsTheResetSideNothing() async throws {
        try await ConnectedPair.with { pair in
            let lost = try await HostScenarios.expectDisconnection(pair.central, handle: pair.centralHandle, "the central")
            let resetSide = try await pair.peripheral.expect("a Disconnection Complete on the reset side", timeout: .milliseconds(400)) { event -> HCIStatus? in
                if case .hci(.disconnectionComplete(let complete)) = event { return complete.reason }
                return nil
            }
            // The clock starts before the Reset is sent: the controller resets after that instant, so the time
            // until the peer's 0x08 measured from it can only be longer than the real delay — a sound lower
            // bound. (Measured from the Reset's Command Complete it could be shorter by the command's latency.)
            let reset = ContinuousClock.now
            try await pair.peripheral.send(Reset())
            #expect(try await pair.central.wait(for: lost) == .connectionTimeout)
            #expect(reset.duration(to: .now) >= Self.supervisionTimeout)
            try await pair.peripheral.initialize()
            #expect(try await HostScenarios.valueOrTimeout(resetSide, on: pair.peripheral) == nil)
            #expect(await pair.peripheral.connections.isEmpty)
            #expect(await pair.peripheral.state == .poweredOn)
        }
    }

    /// A Disconnect toward a peer that has gone is never acknowledged; it ends at the supervision timeout
    /// with the local host's reason.
    @Test func disconnectTowardAVanishedPeerEndsAtTheSupervisionTimeout() async throws {
        try await ConnectedPair.with { pair in
            let start = ContinuousClock.now // before the power-off: a sound lower bound
            await pair.world.controller(named: "peripheral")?.powerOff()
            let reason = try await pair.central.disconnect(handle: pair.centralHandle, timeout: .seconds(2))
            #expect(reason == .connectionTerminatedByLocalHost)
            #expect(start.duration(to: .now) >= Self.supervisionTimeout)
        }
    }
}
