import AccessoryPlay
import HCIPackets
import EventLoops
import HostCore
import Roles
import StrictJSON
import Simulation
import Testing

/// A plan played on a simulated bench's virtual time: each step runs at exactly the instant its trigger
/// names, a stay-away lasts exactly as long as the plan says, a notification source keeps its schedule, and
/// an expectation that is not met fails when its limit runs out — all on the clock of the accessory's host,
/// however loaded the machine.
@Suite struct FaultPlanTimingTests {
    /// The accessory's controller and a central's, on virtual time, seeded (so the air's random advertising
    /// delays are the same every run).
    static let world = SimulatedWorldDescription(
        controllers: [
            .init(name: "accessory", address: BDAddress(0x00_5A_1D_00_00_0A)),
            .init(name: "central", address: BDAddress(0x00_5A_1D_00_00_0C)),
        ],
        timing: SimulationTiming(seed: 30, clock: .virtual))

    static let profileText = #"{"name": "HIL-Timing", "advertising": {"interval_ms": 50}, "services": [{"profile": "battery"}]"#

    func profile(notify: String? = nil) throws -> AccessoryProfile {
        let text = Self.profileText + (notify.map { #", "notify": ["# + $0 + "]" } ?? "") + "}"
        return try AccessoryProfile(reading: try InputDocument.parse(Array(text.utf8)), directory: ".")
    }

    func plan(_ text: String) throws -> FaultPlan {
        try FaultPlan(reading: try InputDocument.parse(Array(text.utf8)), fallbackName: "timing")
    }

    /// Plays `profile` with `plan` on the world's accessory while `central` (a host of ours on the world's
    /// central, started) does what the test's app does; returns the run's result and when the player started
    /// and ended, on the world's clock. The whole is a drive of the clock: time jumps while everything waits.
    func play(_ profile: AccessoryProfile, _ plan: FaultPlan,
              central: @escaping @Sendable (LEDevice, LoopClock) async throws -> Void = { _, _ in })
        async throws -> (result: AccessoryPlayer.Result, started: ContinuousClock.Instant, ended: ContinuousClock.Instant) {
        let world = try SimulatedWorld(Self.world)
        let clock = world.air.clock
        do {
            let played = try await clock.drive { () async throws -> (AccessoryPlayer.Result, ContinuousClock.Instant, ContinuousClock.Instant) in
                let database = try profile.database()
                let accessory = LEDevice(host: try HCIHost(transport: world.openTransport(named: "accessory")), database: database)
                let app = LEDevice(host: try HCIHost(transport: world.openTransport(named: "central")))
                _ = try await app.start()
                let started = clock.now
                let player = AccessoryPlayer(device: accessory, profile: profile, plan: plan, database: database)
                async let running = player.run()
                try await central(app, clock)
                let result = try await running
                let ended = clock.now
                await app.close()
                await accessory.close()
                return (result, started, ended)
            }
            await world.shutdown()
            return played
        } catch {
            await world.shutdown()
            throw error
        }
    }

    /// The milliseconds of the run's first event of `kind` (from the start of the run).
    func first(_ kind: CentralEvent.Kind, in result: AccessoryPlayer.Result) throws -> Double {
        try #require(result.events.first { $0.kind == kind }, "no \(kind) event in \(result.events.map(\.detail))").milliseconds
    }

    @Test func aStepAtATimeRunsAtThatInstantAndItsStayAwayLastsExactlyAsLong() async throws {
        let (result, started, ended) = try await play(try profile(), try plan(#"{"steps": [{"at_ms": 1500, "do": "vanish", "advertise_after_ms": 500}]}"#))
        #expect(result.interruption == nil)
        let step = try #require(result.steps.first)
        #expect(step.ranAt == 1500, "the step ran at \(step.ranAt ?? -1) ms of the run, not at 1500")
        #expect(step.advertisedAgainAt == 2000, "advertising again \(step.advertisedAgainAt ?? -1) ms into the run, not 500 ms after the step")
        // Nothing is left to decide once it advertises again: the run ends at that very instant.
        #expect(started.duration(to: ended) == .milliseconds(2000))
    }

    @Test func aStepAfterAConnectionRunsThatLongAfterItAndTheReconnectIsMeasuredFromAdvertisingAgain() async throws {
        let plan = try plan(#"""
            {"steps": [{"after_connect_ms": 2000, "do": "disconnect", "reason": "0x13", "advertise_after_ms": 1500,
                        "expect": {"reconnect_within_ms": 5000}}]}
            """#)
        let (result, _, _) = try await play(try profile(), plan) { app, _ in
            let link = try await app.connect(matching: ScanFilter(name: "HIL-Timing"), scanTimeout: .seconds(10))
            #expect(try await link.waitForDisconnection(timeout: .seconds(10)) == .remoteUserTerminatedConnection)
            let again = try await app.connect(matching: ScanFilter(name: "HIL-Timing"), scanTimeout: .seconds(10))
            _ = try await again.disconnect()
        }
        #expect(result.interruption == nil)
        let step = try #require(result.steps.first)
        let connectedAt = try first(.connected, in: result)
        #expect(step.ranAt == connectedAt + 2000, "the step ran \((step.ranAt ?? 0) - connectedAt) ms after the connection, not 2000")
        #expect(step.advertisedAgainAt == (step.ranAt ?? 0) + 1500, "advertising again \((step.advertisedAgainAt ?? 0) - (step.ranAt ?? 0)) ms after the step, not 1500")
        let reconnected = try #require(step.reconnectedAt)
        let check = try #require(step.checks.first)
        #expect(check.passed == true, "\(check.message)")
        #expect(check.measured == reconnected - (step.advertisedAgainAt ?? 0))
    }

    @Test func aReconnectThatDoesNotComeFailsWhenItsLimitRunsOut() async throws {
        let plan = try plan(#"""
            {"steps": [{"after_connect_ms": 300, "do": "disconnect", "reason": "0x13", "advertise_after_ms": 200,
                        "expect": {"reconnect_within_ms": 1000}}]}
            """#)
        let (result, started, ended) = try await play(try profile(), plan) { app, _ in
            let link = try await app.connect(matching: ScanFilter(name: "HIL-Timing"), scanTimeout: .seconds(10))
            #expect(try await link.waitForDisconnection(timeout: .seconds(10)) == .remoteUserTerminatedConnection)
        }
        #expect(result.interruption == nil)
        let step = try #require(result.steps.first)
        let advertisedAgain = try #require(step.advertisedAgainAt)
        let check = try #require(step.checks.first)
        #expect(check.passed == false)
        #expect(check.message == "the central did not reconnect within 1000 ms of the accessory advertising again")
        // Decided (and the run over) a microsecond after the limit ran out (to the nanosecond the report's
        // milliseconds name): no later, and not at a poll's next look.
        let decided = started.duration(to: ended)
        let limit = Duration.nanoseconds(Int64(((advertisedAgain + 1000) * 1_000_000).rounded(.up)))
        #expect(decided == limit + .microseconds(1), "decided at \(decided), the limit ran out at \(limit)")
    }

    @Test func aNotificationSourceKeepsItsScheduleOnTheClock() async throws {
        let profile = try profile(notify: #"{"characteristic": "2A19", "every_ms": 100, "counter": {}}"#)
        let (result, started, ended) = try await play(profile, try plan(#"{"steps": [{"at_ms": 1050, "do": "forget_bond"}]}"#))
        #expect(result.interruption == nil)
        #expect(result.steps.first?.ranAt == 1050)
        #expect(started.duration(to: ended) == .milliseconds(1050))
        // Values at 100, 200, … 1000 ms: ten, the eleventh due at 1100 ms after the run ended.
        let played = result.events.filter { $0.kind == .notifications }.map(\.detail)
        #expect(played.contains("2A19's counter: 10 values every 100 ms, 0 notifications to subscribed centrals"), "\(played)")
    }
}
