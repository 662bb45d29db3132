import Support
import BenchOperations
import DeviceControl
import Foundation
import HILResults

/// `hil run`: lock the rig, build and run the suites under Swift Testing, follow the event stream, the
/// records and the loop progress as they grow, print progress, re-write junit.xml, results.json and
/// report.html after every finished case, stop `swift test` at the deadline, and decide the exit status.
package enum HILRun {
    /// Runs as asked; a cancellation of the calling task stops the run like a signal without a name would.
    /// `hil run` itself calls `runHandlingSignals`.
    package static func run(_ options: RunOptions, output: RunOutput) async -> RunReport {
        await run(options, output: output, control: RunControl())
    }

    /// The run, sharing with the signal handling around it what `control` holds: the signals received and
    /// the phase, the children running, the one way the results are written.
    static func run(_ options: RunOptions, output: RunOutput, control: RunControl) async -> RunReport {
        var printer = ProgressPrinter(output)
        func fail(_ outcome: RunOutcome, _ message: String, _ layout: ResultsLayout? = nil) -> RunReport {
            printer.clearStatus()
            output.err("hil run: \(message)\n")
            return RunReport(outcome: outcome, summary: nil, message: message, results: layout)
        }

        // What to run, on what, into where: problems here are usage errors.
        let plan: RunPlan
        switch RunPlan.make(options) {
        case .success(let made): plan = made
        case .failure(let problem): return finish(fail(.usageError, problem.message), control: control, printer: &printer)
        }
        let layout = plan.layout
        printer.packageRoot = plan.suites.directory.path
        // The commit and the start are taken once the bench is held (runHeld); this is for an interruption before.
        var context = RunContext(rig: plan.rigURL.path, rigName: plan.rig.name, package: plan.suites.directory.path,
                                 command: options.command, started: Date(), repeatCount: options.repeatCount)
        control.gate.prepare(layout, context: context)
        /// A failure to take the bench, unless a signal is why.
        func failToTakeTheBench(_ message: String) -> RunReport {
            if let interruption = control.interrupts.interruption() {
                return interrupted(interruption, context: context, layout: layout, control: control, printer: &printer)
            }
            return fail(.infrastructureError, message, layout)
        }

        // The bench: one run at a time.
        let notice: @Sendable (String) -> Void = { text in
            if output.isInteractive { output.out(text + "\n") } else { output.err("hil run: \(text)\n") }
        }
        if let place = plan.rig.labgrid {
            // The bench is a labgrid place: the coordinator decides who runs on it, across hosts.
            let lease: LabgridPlaceLease
            do {
                lease = try await LabgridPlaceLease.acquire(place, wait: options.wait, notice: notice)
            } catch {
                return finish(failToTakeTheBench(error.description), control: control, printer: &printer)
            }
            context.properties = ["labgrid.place": "\(place.place) (coordinator \(place.coordinator))"]
            if let holder = lease.holder { context.properties["labgrid.holder"] = holder }
            let report = await runHeld(options, plan: plan, context: context, control: control, printer: &printer)
            if let error = await lease.release() { output.err("hil run: \(place) was not released: \(error)\n") }
            return finish(report, control: control, printer: &printer)
        }
        let lock: RigLock
        do {
            lock = try await RigLock.acquire(rigName: plan.rig.name, command: options.command, wait: options.wait,
                                             directory: options.lockDirectory, notice: notice)
        } catch {
            return finish(failToTakeTheBench(error.description), control: control, printer: &printer)
        }
        let report = await runHeld(options, plan: plan, context: context, control: control, printer: &printer)
        lock.release()
        return finish(report, control: control, printer: &printer)
    }

    /// The run on a bench it holds: build, test, follow, conclude.
    private static func runHeld(_ options: RunOptions, plan: RunPlan, context: RunContext, control: RunControl,
                                printer: inout ProgressPrinter) async -> RunReport {
        let layout = plan.layout
        var context = context
        context.gitCommit = await gitCommit(plan.suites.directory)
        context.started = Date()
        let output = printer.output
        func fail(_ outcome: RunOutcome, _ message: String, _ layout: ResultsLayout? = nil) -> RunReport {
            printer.clearStatus()
            output.err("hil run: \(message)\n")
            return RunReport(outcome: outcome, summary: nil, message: message, results: layout)
        }
        var invocation = SwiftTestInvocation(suites: plan.suites, filter: options.filter, layout: layout, rig: plan.rigURL,
                                             repeatCount: options.repeatCount, swift: options.swift, testBundle: options.testBundle)
        invocation.captureKeys = options.captureKeys
        do { try context.write(to: layout) } catch { return fail(.usageError, "results directory: \(error)", layout) }
        control.gate.prepare(layout, context: context)
        if let interruption = control.interrupts.interruption() {
            return interrupted(interruption, context: context, layout: layout, control: control, printer: &printer)
        }
        // Space for the last write, should the disk fill up meanwhile.
        var reserve: ResultsReserve?
        do { reserve = try ResultsReserve.make(in: layout) } catch { printer.note("no space set aside for the results: \(error)") }
        defer { reserve?.release() }

        let clock = ContinuousClock()
        let deadline = clock.now + options.timeout
        let timeoutText = ProgressText.duration(options.timeout / .seconds(1))

        // Build first, so a compile error is told apart from a test failure (nothing to build with --test-bundle).
        if invocation.buildCommand != nil { control.interrupts.enter(.building) }
        if let build = await runBuild(invocation, plan: plan, deadline: deadline, clock: clock, pollInterval: options.pollInterval,
                                      children: control.children, printer: &printer) {
            if case .cancelled = build.end, let interruption = control.interrupts.interruption(action: "stopped the build (PID \(build.pid))") {
                return interrupted(interruption, context: context, layout: layout, control: control, printer: &printer)
            }
            if let problem = buildProblem(build, invocation: invocation, plan: plan, timeoutText: timeoutText) {
                return fail(.infrastructureError, problem, layout)
            }
        }

        // Run, following the event stream.
        control.interrupts.enter(.beforeFirstCase)
        var follower = RunFollower(layout: layout, context: context, printer: printer, gate: control.gate, interrupts: control.interrupts)
        let test = await ChildSupervisor.supervise(invocation.testCommand, environment: invocation.environment, log: layout.log,
                                                   deadline: deadline, clock: clock, pollInterval: options.pollInterval,
                                                   children: control.children) { elapsed in
            follower.poll(elapsed: elapsed)
        }
        follower.poll(elapsed: 0, final: true)
        await stopStreamedMeters(of: plan.rig, output: output)
        control.interrupts.enter(.writingResults)
        printer = follower.printer
        if case .couldNotStart(let reason) = test.end {
            if let interruption = control.interrupts.interruption() {
                return interrupted(interruption, context: context, layout: layout, control: control, printer: &printer)
            }
            return fail(.infrastructureError, "cannot start `\(invocation.testCommand.joined(separator: " "))`: \(reason)", layout)
        }

        // How it ended.
        let stopped = "stopped \(invocation.testBundle == nil ? "swift test" : "the test bundle") (PID \(test.pid))"
        let interruption = control.interrupts.interruption(refinedBy: follower.run, action: stopped)
        var assembly = conclude(test, follower: &follower, invocation: invocation, plan: plan, timeoutText: timeoutText,
                                interruption: test.end.wasCancelled ? interruption : nil)
        assembly = writeFinal(assembly, to: layout, gate: control.gate, reserve: reserve)
        // A signal while the results were written (or just before): they are written again, saying so.
        if assembly.interruption == nil, let interruption = control.interrupts.interruption() {
            assembly = rewrite(assembly, interruption: interruption, layout: layout, control: control)
        }
        // Cases that finished with this final pass (a run cut off) are printed too.
        for result in assembly.cases where !follower.printedCases.contains(result.caseName) { printer.caseFinished(result) }
        let summary = assembly.summary
        printer.summary(summary, layout: layout)
        return RunReport(outcome: summary.outcome, summary: summary, message: nil, results: layout, interruption: summary.interruption)
    }

    /// The run's cases and problems once `swift test` has ended: an abort when it was stopped or ended before
    /// the run did (`interruption` when a signal stopped it), a problem when the stream is cut or disagrees with
    /// the exit status, or when nothing ran.
    static func conclude(_ test: ChildSupervisor.Supervised, follower: inout RunFollower, invocation: SwiftTestInvocation,
                         plan: RunPlan, timeoutText: String, interruption: RunInterruption? = nil) -> Assembly {
        let layout = plan.layout
        var abort: ResultsAssembler.Abort?
        var problems = follower.problems()
        let runningText = follower.run.orderedCases.last(where: { !$0.hasEnded && !$0.isSuiteLevel })
            .map { " while \(TestIDParts($0.key.testID).displayPath) was running" } ?? ""
        switch test.end {
        case .couldNotStart:
            break  // reported before the results are assembled
        case .timedOut:
            abort = .init("swift test did not finish within \(timeoutText) (--timeout)\(runningText); stopped it (PID \(test.pid))")
        case .cancelled:
            abort = interruption.map { .init($0, at: $0.time) } ?? .init("interrupted\(runningText); stopped swift test (PID \(test.pid))")
        case .exited(let termination):
            if follower.run.runStarted == nil {
                let lines = test.tail.lines(8).map { "    \($0)" }.joined(separator: "\n")
                problems.append(.init("swift test ended (\(termination)) before the test run started; log: \(layout.log.path)\n\(lines)", outcome: .infrastructureError))
            } else if follower.run.runEnded == nil {
                abort = .init("the test process ended (\(termination)) before the run finished\(runningText); log: \(layout.log.path)")
            }
        }
        if let incomplete = follower.incompleteEventLine, abort == nil {
            problems.append(.init("\(layout.events.path):\(incomplete): the event stream ends in the middle of a line", outcome: .infrastructureError))
        }
        var assembly = follower.assemble(abort: abort, problems: problems, isComplete: true)
        if case .exited(let termination) = test.end, follower.run.runEnded != nil, !termination.succeeded,
           !assembly.cases.contains(where: { $0.verdict == .failed || $0.verdict == .infrastructureError }) {
            let outcome: RunOutcome = { if case .signalled = termination { return .infrastructureError } else { return .productFailure } }()
            assembly.problems.append(.init("swift test ended (\(termination)) although the event stream reports no failure (an XCTest test?); log: \(layout.log.path)", outcome: outcome))
        }
        if assembly.cases.isEmpty && assembly.problems.isEmpty && abort == nil {
            let what = invocation.combinedFilter.map { "no test matched --filter '\($0)'" } ?? "the package has no Swift Testing tests"
            assembly.problems.append(.init("\(what) in \(plan.suites.directory.path)", outcome: .usageError))
        }
        return assembly
    }

    /// `git -C DIR rev-parse HEAD`, or nil (not a repository, no git, or slower than 5 s).
    static func gitCommit(_ directory: URL) async -> String? {
        guard let result = try? await ChildProcess.run(["git", "-C", directory.path, "rev-parse", "HEAD"], deadline: .seconds(5)),
              result.termination.succeeded else { return nil }
        let commit = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return commit.isEmpty ? nil : commit
    }
}
