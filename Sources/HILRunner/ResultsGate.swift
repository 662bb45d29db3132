#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HILResults
import Synchronization

/// The one way a run writes junit.xml, results.json and report.html — the writes after each case, the final
/// one, and the one of a run a second signal ends at once — so that no two interleave, and so that nothing
/// older lands after the last: the write of a run ended at once holds the gate until the process is gone.
/// It keeps the last assembly written (without the marks of an unfinished run), for that write.
final class ResultsGate: Sendable {
    private struct State {
        var layout: ResultsLayout?
        var latest: Assembly?
        /// The files on disk tell the run's interruption.
        var toldInterruption = false
    }

    private let state = Mutex(State())

    init() {}

    /// Where the run writes, and what it knows before any case: a run ended at once before its first write
    /// still leaves the three files.
    func prepare(_ layout: ResultsLayout, context: RunContext) {
        state.withLock { state in
            state.layout = layout
            if state.latest == nil { state.latest = Assembly(context: context, cases: [], isComplete: false) }
        }
    }

    /// Writes `assembly` into `layout` — with `unfinished` among its problems, for a write while the run goes
    /// on — and keeps it as the latest.
    func write(_ assembly: Assembly, to layout: ResultsLayout, unfinished: Assembly.Problem? = nil) throws(ResultsError) {
        try state.withLock { (state: inout State) throws(ResultsError) in
            var written = assembly
            if let unfinished { written.problems.append(unfinished) }
            state.layout = layout
            state.latest = assembly
            try ResultsWriter.write(written, to: layout)
            state.toldInterruption = assembly.interruption != nil
        }
    }

    /// The last assembly given to `write` (or made by `prepare`).
    var latest: Assembly? { state.withLock { $0.latest } }

    /// Where the run writes, once known.
    var layout: ResultsLayout? { state.withLock { $0.layout } }

    /// For a run a second signal ends at once: unless the files already tell an interruption, writes the latest
    /// assembly with `interruption`; then runs `end` (which ends the process) with the gate still held, so that no
    /// other write can follow. A write that fails is told on standard error.
    func endAtOnce(_ interruption: RunInterruption, _ end: (ResultsLayout?) -> Never) -> Never {
        state.withLock { (state: inout State) -> Never in
            if !state.toldInterruption, let layout = state.layout, var assembly = state.latest {
                assembly.interruption = interruption
                assembly.isComplete = false
                do { try ResultsWriter.write(assembly, to: layout) } catch {
                    RunOutput.writeAll(STDERR_FILENO, "hil run: cannot write the results: \(error)\n")
                }
            }
            end(state.layout)
        }
    }
}
