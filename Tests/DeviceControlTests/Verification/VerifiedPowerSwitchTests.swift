import EventLoops
import Testing
import TestSupport
@testable import DeviceControl

/// The switch on virtual time: the fake bench's devices move 20 ms after the switch acts, the switch polls
/// every 10 ms, and every deadline and wait is exactly what the switch promises on the test's clock.
@Suite struct VerifiedPowerSwitchTests {
    static let hub = USBPresence.at("1-1.4", "2109:2811")
    static let dongle = USBPresence.at("1-1.4.2", "2fe3:000b")

    /// The production deadlines (3 s off, 10 s on) unless a test passes its own; all of it on `clock`.
    static func make(clock: LoopClock, lies: Bool = false, knowsDownstream: Bool = true, named: [DeviceExpectation] = [],
                     forcedStatus: PowerState? = nil, deadline: Duration? = nil) async -> (FakeBench, VerifiedPowerSwitch) {
        let bench = FakeBench(present: [hub, dongle], behind: [dongle], clock: clock)
        await bench.setLies(lies)
        let actuator = FakeActuator(bench: bench, name: "usb-hub:1-1.4 port 2", knowsDownstream: knowsDownstream,
                                    watched: [USBLocation("1-1.4.2")!], forcedStatus: forcedStatus)
        let powerSwitch = VerifiedPowerSwitch(actuator: actuator, probe: FakeProbe(bench: bench), expecting: named,
                                              offDeadline: deadline ?? .seconds(3), onDeadline: deadline ?? .seconds(10),
                                              pollInterval: .milliseconds(10), clock: clock)
        return (bench, powerSwitch)
    }

    @Test func offIsVerifiedWhenTheDeviceLeaves() async throws {
        try await withVirtualTime { clock in
            let (bench, powerSwitch) = await Self.make(clock: clock)
            let start = clock.now
            let transition = try await powerSwitch.off()
            // The dongle left 20 ms after the switch acted: the poll at 20 ms saw it gone.
            #expect(start.duration(to: clock.now) == .milliseconds(20))
            #expect(transition.elapsed == .milliseconds(20))
            guard case .verified(let evidence) = transition.verification else { Issue.record("not verified: \(transition.verification)"); return }
            #expect(evidence == "1-1.4.2 (2fe3:000b) left after 20 ms")
            #expect(await bench.present == [Self.hub])
            #expect(transition.steps.first == "fake off")
        }
    }

    @Test func theLyingSwitchIsCaught() async throws {
        try await withVirtualTime { clock in
            let (_, powerSwitch) = await Self.make(clock: clock, lies: true, deadline: .milliseconds(300))
            let start = clock.now
            let error = await #expect(throws: PowerSwitchError.self) { try await powerSwitch.off() }
            #expect(start.duration(to: clock.now) == .milliseconds(300), "it gave up at its deadline, not before or after")
            #expect(error?.kind == .verificationFailed)
            #expect(error?.message == "usb-hub:1-1.4 port 2 reports off but 1-1.4.2 (2fe3:000b) is still enumerated after 300 ms")
        }
    }

    @Test func aSwitchStillReportingOnAfterOffFails() async throws {
        try await withVirtualTime { clock in
            let (_, powerSwitch) = await Self.make(clock: clock, forcedStatus: .on, deadline: .milliseconds(300))
            let start = clock.now
            let error = await #expect(throws: PowerSwitchError.self) { try await powerSwitch.off() }
            #expect(start.duration(to: clock.now) == .zero, "the switch's own report fails it at once, without a wait")
            #expect(error?.message == "usb-hub:1-1.4 port 2: asked to turn off, but it still reports on (fake)")
        }
    }

    @Test func onWaitsForWhatLeftToComeBack() async throws {
        try await withVirtualTime { clock in
            let (bench, powerSwitch) = await Self.make(clock: clock)
            _ = try await powerSwitch.off()
            let start = clock.now
            let transition = try await powerSwitch.on()
            #expect(start.duration(to: clock.now) == .milliseconds(20))
            guard case .verified(let evidence) = transition.verification else { Issue.record("not verified: \(transition.verification)"); return }
            #expect(evidence == "1-1.4.2 (2fe3:000b) enumerated after 20 ms")
            #expect(await bench.present.contains(Self.dongle))
        }
    }

    @Test func onFailsWhenTheDeviceDoesNotReturn() async throws {
        try await withVirtualTime { clock in
            let bench = FakeBench(present: [Self.hub, Self.dongle], behind: [Self.dongle], clock: clock)
            let actuator = FakeActuator(bench: bench, name: "usb-hub:1-1.4 port 2", watched: [USBLocation("1-1.4.2")!])
            let powerSwitch = VerifiedPowerSwitch(actuator: actuator, probe: FakeProbe(bench: bench), offDeadline: .seconds(3),
                                                  onDeadline: .milliseconds(300), pollInterval: .milliseconds(10), clock: clock)
            _ = try await powerSwitch.off()
            await bench.setLies(true)
            let start = clock.now
            let error = await #expect(throws: PowerSwitchError.self) { try await powerSwitch.on() }
            #expect(start.duration(to: clock.now) == .milliseconds(300))
            #expect(error?.message == "usb-hub:1-1.4 port 2 reports on but 1-1.4.2 (2fe3:000b) did not enumerate within 300 ms (behind it now: nothing)")
        }
    }

    @Test func nothingVisibleDownstreamIsUnverifiedWithTheReason() async throws {
        try await withVirtualTime { clock in
            let bench = FakeBench(present: [Self.hub], behind: [], clock: clock)
            let actuator = FakeActuator(bench: bench, name: "pdu-outlet-3", knowsDownstream: false)
            let powerSwitch = VerifiedPowerSwitch(actuator: actuator, probe: FakeProbe(bench: bench), offDeadline: .milliseconds(100),
                                                  onDeadline: .milliseconds(100), pollInterval: .milliseconds(10), clock: clock)
            let start = clock.now
            let off = try await powerSwitch.off()
            guard case .unverified(let reason) = off.verification else { Issue.record("expected unverified"); return }
            #expect(reason.contains("nothing behind pdu-outlet-3 was visible over USB before off"))
            let on = try await powerSwitch.on()
            #expect(!on.verification.isVerified)
            #expect(start.duration(to: clock.now) == .zero, "with nothing to watch there is nothing to wait for")
        }
    }

    @Test func rigNamedDevicesAreWatchedWhenTheActuatorKnowsNothing() async throws {
        try await withVirtualTime { clock in
            let (bench, powerSwitch) = await Self.make(clock: clock, knowsDownstream: false, named: [DeviceExpectation("2fe3:000b")!])
            let off = try await powerSwitch.off()
            #expect(off.verification.isVerified)
            #expect(off.elapsed == .milliseconds(20))
            #expect(await bench.present == [Self.hub])
            let on = try await powerSwitch.on()
            #expect(on.verification.isVerified)
            #expect(on.elapsed == .milliseconds(20))
        }
    }

    @Test func onWithNothingExpectedAcceptsAnythingAtTheWatchedPort() async throws {
        try await withVirtualTime { clock in
            let bench = FakeBench(present: [Self.hub], behind: [Self.dongle], clock: clock)
            let actuator = FakeActuator(bench: bench, name: "usb-hub:1-1.4 port 2", watched: [USBLocation("1-1.4.2")!])
            let powerSwitch = VerifiedPowerSwitch(actuator: actuator, probe: FakeProbe(bench: bench), offDeadline: .seconds(3),
                                                  onDeadline: .seconds(10), pollInterval: .milliseconds(10), clock: clock)
            let on = try await powerSwitch.on()
            guard case .verified(let evidence) = on.verification else { Issue.record("not verified: \(on.verification)"); return }
            #expect(evidence == "1-1.4.2 (2fe3:000b) enumerated after 20 ms")
        }
    }

    /// `cycle` keeps its off time on the switch's clock too: 20 ms for the dongle to leave, 20 ms off, 20 ms
    /// for it to come back.
    @Test func cycleVerifiesBothHalves() async throws {
        try await withVirtualTime { clock in
            let (_, powerSwitch) = await Self.make(clock: clock)
            let start = clock.now
            let transition = try await powerSwitch.cycle(offTime: .milliseconds(20))
            #expect(start.duration(to: clock.now) == .milliseconds(60))
            #expect(transition.elapsed == .milliseconds(60))
            #expect(transition.action == .cycle(offTime: .milliseconds(20)))
            guard case .verified(let evidence) = transition.verification else { Issue.record("not verified"); return }
            #expect(evidence.contains("off: 1-1.4.2 (2fe3:000b) left after 20 ms") && evidence.contains("on: 1-1.4.2 (2fe3:000b) enumerated after 20 ms"),
                    "\(evidence)")
            #expect(transition.steps.contains("waited 20 ms"))
        }
    }
}
