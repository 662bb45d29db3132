import BenchOperations
import DeviceControl
import Foundation
import HILResults

/// `hil run`: lock the rig, build and run the suites under Swift Testing, follow the event stream, the
/// records and the loop progress as they grow, print progress, re-write junit.xml, results.json and
/// report.html after every finished case, stop `swift test` at the deadline, and decide the exit status.
public enum HILRun {
    public static func run(_ options: RunOptions, output: RunOutput) async -> RunReport {
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
        case .failure(let problem): return fail(.usageError, problem.message)
        }
        let layout = plan.layout
        printer.packageRoot = plan.suites.directory.path

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
                return fail(.infrastructureError, error.description, layout)
            }
            var properties = ["labgrid.place": "\(place.place) (coordinator \(place.coordinator))"]
            if let holder = lease.holder { properties["labgrid.holder"] = holder }
            let report = await runHeld(options, plan: plan, properties: properties, printer: &printer)
            if let error = await lease.release() { output.err("hil run: \(place) was not released: \(error)\n") }
            return report
        }
        let lock: RigLock
        do {
            lock = try await RigLock.acquire(rigName: plan.rig.name, command: options.command, wait: options.wait,
                                             directory: options.lockDirectory, notice: notice)
        } catch {
            return fail(.infrastructureError, error.description, layout)
        }
        defer { lock.release() }
        return await runHeld(options, plan: plan, properties: [:], printer: &printer)
    }

    /// The run on a bench it holds: build, test, follow, conclude. `properties` go into the run's context.
    private static func runHeld(_ options: RunOptions, plan: RunPlan, properties: [String: String],
                                printer: inout ProgressPrinter) async -> RunReport {
        let layout = plan.layout
        let output = printer.output
        func fail(_ outcome: RunOutcome, _ message: String, _ layout: ResultsLayout? = nil) -> RunReport {
            printer.clearStatus()
            output.err("hil run: \(message)\n")
            return RunReport(outcome: outcome, summary: nil, message: message, results: layout)
        }
        var invocation = SwiftTestInvocation(suites: plan.suites, filter: options.filter, layout: layout, rig: plan.rigURL,
                                             repeatCount: options.repeatCount, swift: options.swift, testBundle: options.testBundle)
        invocation.captureKeys = options.captureKeys
        let context = RunContext(rig: plan.rigURL.path, rigName: plan.rig.name, gitCommit: await gitCommit(plan.suites.directory),
                                 package: plan.suites.directory.path, command: options.command, started: Date(), repeatCount: options.repeatCount,
                                 properties: properties)
        do { try context.write(to: layout) } catch { return fail(.usageError, "results directory: \(error)", layout) }

        let clock = ContinuousClock()
        let deadline = clock.now + options.timeout
        let timeoutText = ProgressText.duration(options.timeout / .seconds(1))

        // Build first, so a compile error is told apart from a test failure (nothing to build with --test-bundle).
        if let problem = await build(invocation, plan: plan, deadline: deadline, clock: clock, timeoutText: timeoutText,
                                     pollInterval: options.pollInterval, printer: &printer) {
            return fail(.infrastructureError, problem, layout)
        }

        // Run, following the event stream.
        var follower = RunFollower(layout: layout, context: context, printer: printer)
        let test = await ChildSupervisor.supervise(invocation.testCommand, environment: invocation.environment, log: layout.log,
                                                   deadline: deadline, clock: clock, pollInterval: options.pollInterval) { elapsed in
            follower.poll(elapsed: elapsed)
        }
        follower.poll(elapsed: 0, final: true)
        printer = follower.printer
        if case .couldNotStart(let reason) = test.end {
            return fail(.infrastructureError, "cannot start `\(invocation.testCommand.joined(separator: " "))`: \(reason)", layout)
        }

        // How it ended.
        var assembly = conclude(test, follower: &follower, invocation: invocation, plan: plan, timeoutText: timeoutText)
        do { try ResultsWriter.write(assembly, to: layout) } catch {
            assembly.problems.append(.init("cannot write the results: \(error)", outcome: .infrastructureError))
        }
        // Cases that finished with this final pass (a run cut off) are printed too.
        for result in assembly.cases where !follower.printedCases.contains(result.caseName) { printer.caseFinished(result) }
        let summary = assembly.summary
        printer.summary(summary, layout: layout)
        return RunReport(outcome: summary.outcome, summary: summary, message: nil, results: layout)
    }

    /// Builds the suites' tests, showing the seconds spent (on `clock`, which `deadline` is an instant of);
    /// nil when the build succeeded (or there is nothing to build), else why it did not.
    static func build<C: Clock<Duration>>(_ invocation: SwiftTestInvocation, plan: RunPlan, deadline: C.Instant, clock: C, timeoutText: String,
                                          pollInterval: Duration, printer: inout ProgressPrinter, noteEverySeconds: Int = 10) async -> String? {
        guard let buildCommand = invocation.buildCommand else { return nil }
        let layout = plan.layout
        let directory = plan.suites.directory
        var shownSecond = -1
        var notedTen = 0 // notes given so far, one per `noteEverySeconds`
        let build = await ChildSupervisor.supervise(buildCommand, environment: [:], log: layout.log, deadline: deadline, clock: clock,
                                                    pollInterval: pollInterval) { elapsed in
            guard Int(elapsed) != shownSecond else { return }
            shownSecond = Int(elapsed)
            printer.status("building the tests of \(directory.lastPathComponent)… \(shownSecond) s")
            // Without a terminal the status line is not shown: a note every 10 s says the build goes on.
            if !printer.output.isInteractive, shownSecond / noteEverySeconds > notedTen {
                notedTen = shownSecond / noteEverySeconds
                printer.note("building the tests of \(directory.lastPathComponent)… \(notedTen * noteEverySeconds) s (log: \(layout.log.path))")
            }
        }
        switch build.end {
        case .exited(.exited(0)):
            return nil
        case .couldNotStart(let reason):
            return "cannot start `\(buildCommand.joined(separator: " "))`: \(reason)"
        case .exited(let termination):
            let lines = build.tail.lines(12).map { "    \($0)" }.joined(separator: "\n")
            return "building the tests of \(directory.path) failed (\(termination)); full log: \(layout.log.path)\n\(lines)"
        case .timedOut:
            return "building the tests of \(directory.path) did not finish within \(timeoutText) (--timeout); stopped it (PID \(build.pid)); log: \(layout.log.path)"
        case .cancelled:
            return "interrupted while building the tests; stopped the build (PID \(build.pid))"
        }
    }

    /// The run's cases and problems once `swift test` has ended: an abort when it was stopped or ended before
    /// the run did, a problem when the stream is cut or disagrees with the exit status, or when nothing ran.
    static func conclude(_ test: ChildSupervisor.Supervised, follower: inout RunFollower, invocation: SwiftTestInvocation,
                         plan: RunPlan, timeoutText: String) -> Assembly {
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
            abort = .init("interrupted\(runningText); stopped swift test (PID \(test.pid))")
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
