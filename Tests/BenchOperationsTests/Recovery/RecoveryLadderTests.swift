@testable import BenchOperations
import EventLoops
import Synchronization
import Testing
import TestSupport

/// The ladder with fake rungs, on virtual time: a rung that takes 20 ms takes exactly 20 ms of the ladder's
/// clock, and a hung rung fails at exactly its deadline.
@Suite struct RecoveryLadderTests {
    /// Records which rungs ran.
    final class Trace: Sendable {
        let ran = Mutex<[String]>([])
        let clock: LoopClock
        init(clock: LoopClock) { self.clock = clock }
        func rung(_ name: String, _ attempt: RecoveryLadder.Attempt, delay: Duration = .zero) -> RecoveryLadder.Rung {
            RecoveryLadder.Rung(name: name) { [clock] in
                self.ran.withLock { $0.append(name) }
                if delay > .zero { try? await Task.sleep(for: delay, clock: clock) }
                return attempt
            }
        }
        var names: [String] { ran.withLock { $0 } }
    }

    @Test func eachFailureMovesToTheNextAndARecoveryStopsEarly() async throws {
        try await withVirtualTime { clock in
            let trace = Trace(clock: clock)
            let ladder = RecoveryLadder(adapter: "usb:0", rungs: [
                trace.rung("HCI Reset", .failed("no Command Complete")),
                trace.rung("USB reset", .recovered("answered")),
                trace.rung("close and reopen", .recovered("should not run")),
            ], clock: clock)
            let outcome = await ladder.climb()
            guard case .recovered(let rung, let steps) = outcome else { Issue.record("not recovered: \(outcome)"); return }
            #expect(rung == "USB reset")
            #expect(trace.names == ["HCI Reset", "USB reset"])
            #expect(steps.map(\.result) == [.failed, .recovered])
            #expect(steps[0].outcome == "no Command Complete")
        }
    }

    @Test func aNeverRecoveringAdapterEndsBrokenWithEveryStepRecorded() async throws {
        try await withVirtualTime { clock in
            let trace = Trace(clock: clock)
            let ladder = RecoveryLadder(adapter: "usb:2fe3:000b", rungs: [
                trace.rung("HCI Reset", .failed("timeout"), delay: .milliseconds(20)),
                trace.rung("USB reset", .failed("still silent"), delay: .milliseconds(5)),
                trace.rung("close and reopen", .failed("still silent")),
                trace.rung("power-cycle hub port", .skipped("no switch")),
            ], clock: clock)
            let outcome = await ladder.climb()
            guard case .broken(let broken) = outcome else { Issue.record("recovered: \(outcome)"); return }
            #expect(trace.names.count == 4)
            #expect(broken.steps.map(\.name) == ["HCI Reset", "USB reset", "close and reopen", "power-cycle hub port"])
            #expect(broken.steps.map(\.result) == [.failed, .failed, .failed, .skipped])
            // Each step's time is the rung's own, and the next begins where it ended.
            #expect(broken.steps.map(\.duration) == [.milliseconds(20), .milliseconds(5), .zero, .zero])
            #expect(broken.steps.map(\.startOffset) == [.zero, .milliseconds(20), .milliseconds(25), .milliseconds(25)])
            #expect(broken.description.contains("bench broken: usb:2fe3:000b did not recover"))
            #expect(broken.description.contains("last failure: still silent"))
        }
    }

    @Test func aHungRungFailsAtItsDeadline() async throws {
        try await withVirtualTime { clock in
            let hang: Duration = .seconds(30)
            let ladder = RecoveryLadder(adapter: "hci-socket:0", rungs: [
                RecoveryLadder.Rung(name: "HCI Reset", deadline: .milliseconds(50)) {
                    try? await Task.sleep(for: hang, clock: clock)
                    return .recovered("too late")
                },
                RecoveryLadder.Rung(name: "close and reopen") { .recovered("answered") },
            ], clock: clock)
            let start = clock.now
            let outcome = await ladder.climb()
            #expect(start.duration(to: clock.now) == .milliseconds(50), "the hung rung was given up at its deadline")
            #expect(outcome.steps.first?.duration == .milliseconds(50))
            #expect(outcome.steps.first?.outcome == "did not finish within 0.05 s")
            #expect(outcome.steps.map(\.result) == [.failed, .recovered])
        }
    }

    @Test func stepsPrintTheirTimeAndResult() {
        let step = RecoveryStep(name: "USB reset", startOffset: .milliseconds(2050), duration: .milliseconds(840), result: .recovered, outcome: "answered")
        #expect(step.description == "+2.05 s  USB reset (0.84 s): recovered: answered")
    }
}
