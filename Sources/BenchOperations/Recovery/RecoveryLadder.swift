import Foundation
import Synchronization
import EventLoops

/// The recovery lab engineers do by hand, in order of cost: HCI Reset → USB reset → close and reopen →
/// power-cycle the adapter's own hub port → declare the bench broken. The runner climbs it between tests
/// and whenever an adapter wedges; it stops at the first rung after which the adapter answers, and
/// records every rung it tried with its time and result.
package struct RecoveryLadder: Sendable {
    /// What one rung reports.
    package enum Attempt: Sendable, Equatable {
        case recovered(String)
        case failed(String)
        case skipped(String)
    }

    /// One rung: a name and an action that ends with the adapter answering, or says why not.
    package struct Rung: Sendable {
        package var name: String
        /// The rung's own deadline; an action still running then counts as failed.
        package var deadline: Duration
        package var action: @Sendable () async -> Attempt

        package init(name: String, deadline: Duration = .seconds(30), action: @escaping @Sendable () async -> Attempt) {
            self.name = name
            self.deadline = deadline
            self.action = action
        }
    }

    /// Names the adapter in `BenchBroken`.
    package var adapter: String
    package var rungs: [Rung]
    /// The clock rung deadlines and step times are on: the bench's (virtual time on a simulated bench).
    package var clock: LoopClock

    package init(adapter: String, rungs: [Rung], clock: LoopClock = .real) {
        self.adapter = adapter
        self.rungs = rungs
        self.clock = clock
    }

    /// Tries the rungs in order; stops at the first that recovers.
    package func climb() async -> RecoveryOutcome {
        let start = clock.now
        var steps: [RecoveryStep] = []
        for rung in rungs {
            let began = clock.now
            let attempt = await Self.run(rung, clock: clock)
            let step: RecoveryStep
            switch attempt {
            case .recovered(let text):
                step = RecoveryStep(name: rung.name, startOffset: began - start, duration: clock.now - began, result: .recovered, outcome: text)
            case .failed(let text):
                step = RecoveryStep(name: rung.name, startOffset: began - start, duration: clock.now - began, result: .failed, outcome: text)
            case .skipped(let text):
                step = RecoveryStep(name: rung.name, startOffset: began - start, duration: clock.now - began, result: .skipped, outcome: text)
            }
            steps.append(step)
            if step.result == .recovered { return .recovered(rung: rung.name, steps: steps) }
        }
        return .broken(BenchBroken(adapter: adapter, steps: steps))
    }

    /// Runs a rung's action against its deadline. An action that overruns is left to finish on its own
    /// (its result is ignored) and the rung counts as failed, so a hung call never hangs the ladder; an action
    /// that ends in time cancels the deadline's timer, which leaves nothing armed on the clock.
    static func run(_ rung: Rung, clock: LoopClock) async -> Attempt {
        await withCheckedContinuation { (continuation: CheckedContinuation<Attempt, Never>) in
            let once = ResumeOnce(continuation)
            let due = clock.now.advanced(by: rung.deadline)
            let work = Task(executorPreference: clock.taskExecutor) { once.resume(await rung.action()) }
            once.keep(timer: Task(executorPreference: clock.taskExecutor) {
                guard (try? await Task.sleep(until: due, clock: clock)) != nil else { return }
                if once.resume(.failed("did not finish within \(RecoveryStep.seconds(rung.deadline)) s")) { work.cancel() }
            })
        }
    }
}

/// Resumes a continuation with the first value offered, and then cancels the deadline's timer.
private final class ResumeOnce: Sendable {
    private let state: Mutex<(continuation: CheckedContinuation<RecoveryLadder.Attempt, Never>?, timer: Task<Void, Never>?)>

    init(_ continuation: CheckedContinuation<RecoveryLadder.Attempt, Never>) {
        self.state = Mutex((continuation, nil))
    }

    /// Holds the deadline's timer, to cancel when the continuation is resumed (at once if it was).
    func keep(timer: Task<Void, Never>) {
        let resumed = state.withLock { state -> Bool in
            if state.continuation != nil { state.timer = timer }
            return state.continuation == nil
        }
        if resumed { timer.cancel() }
    }

    /// True when this call resumed it.
    @discardableResult
    func resume(_ attempt: RecoveryLadder.Attempt) -> Bool {
        let (taken, timer) = state.withLock { state -> (CheckedContinuation<RecoveryLadder.Attempt, Never>?, Task<Void, Never>?) in
            defer { state = (nil, nil) }
            return (state.continuation, state.timer)
        }
        taken?.resume(returning: attempt)
        timer?.cancel()
        return taken != nil
    }
}
