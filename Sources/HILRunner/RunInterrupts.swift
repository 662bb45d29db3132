import Foundation
import HILResults
import Synchronization

/// The signals that interrupt a run (SIGINT, SIGTERM, SIGHUP) as they come, and the phase the run is in,
/// which the run sets as it goes: the first signal is kept with when it came and the phase it came in.
/// `RunSignals` reports the signals; the run reads the first when it stops and writes its results.
package final class RunInterrupts: Sendable {
    /// The first signal, when it came, and the phase the run was in then.
    package struct Received: Sendable, Hashable {
        package var signal: Int32
        package var time: Date
        package var phase: RunInterruption.Phase
    }

    private struct State {
        var phase: RunInterruption.Phase = .starting
        var first: Received?
        var count = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// The run is now in `phase`.
    func enter(_ phase: RunInterruption.Phase) {
        state.withLock { $0.phase = phase }
    }

    /// The phase the run last entered.
    var phase: RunInterruption.Phase { state.withLock { $0.phase } }

    /// Records a signal that came at `time`; how many have come, this one included.
    @discardableResult
    package func receive(_ signal: Int32, at time: Date = Date()) -> Int {
        state.withLock { state in
            if state.first == nil { state.first = Received(signal: signal, time: time, phase: state.phase) }
            state.count += 1
            return state.count
        }
    }

    /// The first signal, if one came.
    package var first: Received? { state.withLock { $0.first } }

    /// The interruption the results tell, if a signal came: in the phase it came in, or — when the tests
    /// were running and `run` holds what the event stream said by the end — the test case running at that
    /// instant (the runner may not have read the events of the last moments before the signal).
    func interruption(refinedBy run: SwiftTestingRun? = nil, action: String? = nil) -> RunInterruption? {
        guard let first else { return nil }
        var phase = first.phase
        if phase.isTesting, let run { phase = RunInterruption.testingPhase(run, at: first.time) }
        return RunInterruption(signal: first.signal, phase: phase, time: first.time, action: action)
    }
}
