#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HILResults
import Support

/// SIGINT, SIGTERM and SIGHUP during `hil run`. The first cancels the run: it stops its children (with their
/// grace period), writes its results saying it was interrupted — by which signal, when, in which phase — and
/// returns 128 + the signal (130, 143, 129). A second one while it stops ends the process at once with that
/// same status: every child is killed (SIGKILL, with what it started), the results are written saying so
/// unless they already do, and the process exits without waiting for anything.
///
/// Through `SignalPipe`, the signals' default action turned off: what they do runs on the pipe's thread, not
/// in a signal handler nor on Swift's cooperative pool, so it may lock, write files and call `kill(2)`; and a
/// signal that comes at once after `install` is not lost, as it could be while a Dispatch signal source registers.
/// SIGPIPE is ignored too: a closed reader of our output must not end the run and orphan its tests.
extension HILRun {
    /// `run`, with the signals above handled as described. The sources stay installed until the process
    /// exits: a signal after the run's status was decided (in the instant before `exit`) is ignored, so the
    /// status always agrees with the results.
    package static func runHandlingSignals(_ options: RunOptions, output: RunOutput) async -> RunReport {
        let control = RunControl()
        let task = Task { await run(options, output: output, control: control) }
        RunSignals.install(control, cancelling: task)
        return await task.value
    }
}

/// What `runHandlingSignals` installs, kept for the life of the process.
enum RunSignals {
    static let numbers: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    static func install(_ control: RunControl, cancelling task: Task<RunReport, Never>) {
        SignalPipe.handle(numbers) { received($0, control: control, task: task) }
    }

    /// The first signal cancels the run; a second ends the process at once.
    static func received(_ number: Int32, control: RunControl, task: Task<RunReport, Never>) {
        let count = control.interrupts.receive(number)
        let name = RunInterruption.signalName(number)
        if count == 1 {
            RunOutput.writeAll(STDERR_FILENO, "\nhil run: \(name): stopping the tests and writing the results (another signal stops at once)\n")
            task.cancel()
            return
        }
        // The case running when the first signal came, from the event stream as it is now (the run may not
        // have read its last lines).
        let events = control.interrupts.first?.phase.isTesting == true ? control.gate.layout.map { SwiftTestingRun.load($0.events).run } : nil
        guard var interruption = control.interrupts.interruption(refinedBy: events) else { return }
        interruption.action = "a second signal (\(name)) ended hil run at once; killed its children"
        let killed = control.children.killAll()
        let status = interruption.exitStatus
        control.gate.endAtOnce(interruption) { layout in
            let results = layout.map { "; results: \($0.directory.path)" } ?? ""
            RunOutput.writeAll(STDERR_FILENO, "hil run: \(name) again: stopped at once (killed PID \(killed.map(String.init).joined(separator: ", ")))\(results)\n")
            _exit(status)
        }
    }
}
