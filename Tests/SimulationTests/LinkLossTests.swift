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
            await pair.bench.controller(named: victim)?.powerOff()
            let cut = ContinuousClock.now
            let reason = try await survivor.wait(for: lost)
            let elapsed = cut.duration(to: .now)
            #expect(reason == .connectionTimeout)
            #expect(elapsed >= Self.supervisionTimeout, "0x08 after \(elapsed), before the supervision timeout")
            #expect(elapsed < Self.supervisionTimeout + Self.interval + .milliseconds(250), "0x08 only after \(elapsed)")
            // The powered-off side's host saw its transport close, as when a dongle is unplugged.
            #expect(await gone.state == .poweredOff)
            #expect(await gone.closedReason?.kind == .closedByPeer)
            let stats = await pair.bench.air.statistics()
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
            // HCI Reset on its own first: its Command Complete comes after the controller reset, so the time
            // taken here is no earlier than the reset (a lower bound measured from it is sound).
            try await pair.peripheral.send(Reset())
            let reset = ContinuousClock.now
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
            await pair.bench.controller(named: "peripheral")?.powerOff()
            let start = ContinuousClock.now
            let reason = try await pair.central.disconnect(handle: pair.centralHandle, timeout: .seconds(2))
            #expect(reason == .connectionTerminatedByLocalHost)
            #expect(start.duration(to: .now) >= Self.supervisionTimeout - .milliseconds(5))
        }
    }
}
