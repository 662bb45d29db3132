import Testing
@testable import DeviceControl

@Suite struct VerifiedPowerSwitchTests {
    static let hub = USBPresence.at("1-1.4", "2109:2811")
    static let dongle = USBPresence.at("1-1.4.2", "2fe3:000b")

    /// Tests that expect the devices to move use the production deadlines (3 s off, 10 s on): the fake moves
    /// them within a few polls, and on a loaded 2-core machine a short deadline would measure the scheduler,
    /// not the switch. Tests that expect a failure pass a short deadline, since they wait all of it.
    static func make(lies: Bool = false, knowsDownstream: Bool = true, named: [DeviceExpectation] = [],
                     forcedStatus: PowerState? = nil, deadline: Duration? = nil) async -> (FakeBench, VerifiedPowerSwitch) {
        let bench = FakeBench(present: [hub, dongle], behind: [dongle])
        await bench.setLies(lies)
        let actuator = FakeActuator(bench: bench, name: "usb-hub:1-1.4 port 2", knowsDownstream: knowsDownstream,
                                    watched: [USBLocation("1-1.4.2")!], forcedStatus: forcedStatus)
        let powerSwitch = VerifiedPowerSwitch(actuator: actuator, probe: FakeProbe(bench: bench), expecting: named,
                                              offDeadline: deadline ?? .seconds(3), onDeadline: deadline ?? .seconds(10), pollInterval: .milliseconds(10))
        return (bench, powerSwitch)
    }

    @Test func offIsVerifiedWhenTheDeviceLeaves() async throws {
        let (bench, powerSwitch) = await Self.make()
        let transition = try await powerSwitch.off()
        guard case .verified(let evidence) = transition.verification else { Issue.record("not verified: \(transition.verification)"); return }
        #expect(evidence.hasPrefix("1-1.4.2 (2fe3:000b) left after"))
        #expect(await bench.present == [Self.hub])
        #expect(transition.steps.first == "fake off")
    }

    @Test func theLyingSwitchIsCaught() async throws {
        let (_, powerSwitch) = await Self.make(lies: true, deadline: .milliseconds(300))
        let error = await #expect(throws: PowerSwitchError.self) { try await powerSwitch.off() }
        #expect(error?.kind == .verificationFailed)
        #expect(error?.message == "usb-hub:1-1.4 port 2 reports off but 1-1.4.2 (2fe3:000b) is still enumerated after 300 ms")
    }

    @Test func aSwitchStillReportingOnAfterOffFails() async throws {
        let (_, powerSwitch) = await Self.make(forcedStatus: .on, deadline: .milliseconds(300))
        let error = await #expect(throws: PowerSwitchError.self) { try await powerSwitch.off() }
        #expect(error?.message == "usb-hub:1-1.4 port 2: asked to turn off, but it still reports on (fake)")
    }

    @Test func onWaitsForWhatLeftToComeBack() async throws {
        let (bench, powerSwitch) = await Self.make()
        _ = try await powerSwitch.off()
        let transition = try await powerSwitch.on()
        guard case .verified(let evidence) = transition.verification else { Issue.record("not verified: \(transition.verification)"); return }
        #expect(evidence.hasPrefix("1-1.4.2 (2fe3:000b) enumerated after"))
        #expect(await bench.present.contains(Self.dongle))
    }

    @Test func onFailsWhenTheDeviceDoesNotReturn() async throws {
        let bench = FakeBench(present: [Self.hub, Self.dongle], behind: [Self.dongle])
        let actuator = FakeActuator(bench: bench, name: "usb-hub:1-1.4 port 2", watched: [USBLocation("1-1.4.2")!])
        let powerSwitch = VerifiedPowerSwitch(actuator: actuator, probe: FakeProbe(bench: bench), offDeadline: .seconds(3),
                                              onDeadline: .milliseconds(300), pollInterval: .milliseconds(10))
        _ = try await powerSwitch.off()
        await bench.setLies(true)
        let error = await #expect(throws: PowerSwitchError.self) { try await powerSwitch.on() }
        #expect(error?.message == "usb-hub:1-1.4 port 2 reports on but 1-1.4.2 (2fe3:000b) did not enumerate within 300 ms (behind it now: nothing)")
    }

    @Test func nothingVisibleDownstreamIsUnverifiedWithTheReason() async throws {
        let bench = FakeBench(present: [Self.hub], behind: [])
        let actuator = FakeActuator(bench: bench, name: "pdu-outlet-3", knowsDownstream: false)
        let powerSwitch = VerifiedPowerSwitch(actuator: actuator, probe: FakeProbe(bench: bench), offDeadline: .milliseconds(100),
                                              onDeadline: .milliseconds(100), pollInterval: .milliseconds(10))
        let off = try await powerSwitch.off()
        guard case .unverified(let reason) = off.verification else { Issue.record("expected unverified"); return }
        #expect(reason.contains("nothing behind pdu-outlet-3 was visible over USB before off"))
        let on = try await powerSwitch.on()
        #expect(!on.verification.isVerified)
    }

    @Test func rigNamedDevicesAreWatchedWhenTheActuatorKnowsNothing() async throws {
        let (bench, powerSwitch) = await Self.make(knowsDownstream: false, named: [DeviceExpectation("2fe3:000b")!])
        let off = try await powerSwitch.off()
        #expect(off.verification.isVerified)
        #expect(await bench.present == [Self.hub])
        let on = try await powerSwitch.on()
        #expect(on.verification.isVerified)
    }

    @Test func onWithNothingExpectedAcceptsAnythingAtTheWatchedPort() async throws {
        let bench = FakeBench(present: [Self.hub], behind: [Self.dongle])
        let actuator = FakeActuator(bench: bench, name: "usb-hub:1-1.4 port 2", watched: [USBLocation("1-1.4.2")!])
        let powerSwitch = VerifiedPowerSwitch(actuator: actuator, probe: FakeProbe(bench: bench), offDeadline: .seconds(3),
                                              onDeadline: .seconds(10), pollInterval: .milliseconds(10))
        let on = try await powerSwitch.on()
        guard case .verified(let evidence) = on.verification else { Issue.record("not verified: \(on.verification)"); return }
        #expect(evidence.hasPrefix("1-1.4.2 (2fe3:000b) enumerated after"))
    }

    @Test func cycleVerifiesBothHalves() async throws {
        let (_, powerSwitch) = await Self.make()
        let transition = try await powerSwitch.cycle(offTime: .milliseconds(20))
        #expect(transition.action == .cycle(offTime: .milliseconds(20)))
        guard case .verified(let evidence) = transition.verification else { Issue.record("not verified"); return }
        #expect(evidence.contains("off: 1-1.4.2 (2fe3:000b) left") && evidence.contains("on: 1-1.4.2 (2fe3:000b) enumerated"))
        #expect(transition.steps.contains("waited 20 ms"))
    }
}
