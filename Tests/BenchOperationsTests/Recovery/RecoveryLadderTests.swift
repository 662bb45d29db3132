@testable import BenchOperations
import Synchronization
import Testing

/// The ladder with fake rungs.
@Suite struct RecoveryLadderTests {
    /// Records which rungs ran.
    final class Trace: Sendable {
        let ran = Mutex<[String]>([])
        func rung(_ name: String, _ attempt: RecoveryLadder.Attempt, delay: Duration = .zero) -> RecoveryLadder.Rung {
            RecoveryLadder.Rung(name: name) {
                self.ran.withLock { $0.append(name) }
                if delay > .zero { try? await Task.sleep(for: delay) }
                return attempt
            }
        }
        var names: [String] { ran.withLock { $0 } }
    }

    @Test func eachFailureMovesToTheNextAndARecoveryStopsEarly() async {
        let trace = Trace()
        let ladder = RecoveryLadder(adapter: "usb:0", rungs: [
            trace.rung("HCI Reset", .failed("no Command Complete")),
            trace.rung("USB reset", .recovered("answered")),
            trace.rung("close and reopen", .recovered("should not run")),
        ])
        let outcome = await ladder.climb()
        guard case .recovered(let rung, let steps) = outcome else { Issue.record("not recovered: \(outcome)"); return }
        #expect(rung == "USB reset")
        #expect(trace.names == ["HCI Reset", "USB reset"])
        #expect(steps.map(\.result) == [.failed, .recovered])
        #expect(steps[0].outcome == "no Command Complete")
    }

    @Test func aNeverRecoveringAdapterEndsBrokenWithEveryStepRecorded() async {
        let trace = Trace()
        let ladder = RecoveryLadder(adapter: "usb:2fe3:000b", rungs: [
            trace.rung("HCI Reset", .failed("timeout"), delay: .milliseconds(20)),
            trace.rung("USB reset", .failed("still silent")),
            trace.rung("close and reopen", .failed("still silent")),
            trace.rung("power-cycle hub port", .skipped("no switch")),
        ])
        let outcome = await ladder.climb()
        guard case .broken(let broken) = outcome else { Issue.record("recovered: \(outcome)"); return }
        #expect(trace.names.count == 4)
        #expect(broken.steps.map(\.name) == ["HCI Reset", "USB reset", "close and reopen", "power-cycle hub port"])
        #expect(broken.steps.map(\.result) == [.failed, .failed, .failed, .skipped])
        #expect(broken.steps[0].duration >= .milliseconds(20))
        #expect(broken.steps[1].startOffset >= broken.steps[0].startOffset + broken.steps[0].duration)
        #expect(broken.description.contains("bench broken: usb:2fe3:000b did not recover"))
        #expect(broken.description.contains("last failure: still silent"))
    }

    @Test func aHungRungFailsAtItsDeadline() async {
        let ladder = RecoveryLadder(adapter: "hci-socket:0", rungs: [
            RecoveryLadder.Rung(name: "HCI Reset", deadline: .milliseconds(50)) {
                try? await Task.sleep(for: .seconds(30))
                return .recovered("too late")
            },
            RecoveryLadder.Rung(name: "close and reopen") { .recovered("answered") },
        ])
        let clock = ContinuousClock()
        let start = clock.now
        let outcome = await ladder.climb()
        #expect(clock.now - start < .seconds(5))
        #expect(outcome.steps.first?.outcome == "did not finish within 0.05 s")
        #expect(outcome.steps.map(\.result) == [.failed, .recovered])
    }

    @Test func stepsPrintTheirTimeAndResult() {
        let step = RecoveryStep(name: "USB reset", startOffset: .milliseconds(2050), duration: .milliseconds(840), result: .recovered, outcome: "answered")
        #expect(step.description == "+2.05 s  USB reset (0.84 s): recovered: answered")
    }
}
