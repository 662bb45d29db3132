import Foundation
import EventLoops
@testable import HILResults
@testable import HILRunner
import Rigs
import Testing
import TestSupport

/// Without a terminal (CI, `--quiet`) the status line is not drawn, so a long build says it goes on, on
/// standard error, instead of a silent minute; and a build past the run's deadline is stopped at it. The
/// build is a stand-in `swift` (a shell script: a real child) that ends when the test says so through a FIFO;
/// the ticks and the deadline are on a stepped clock, so each note and the stop come at exactly the instant
/// the runner promises.
@Suite(.tags(.process)) struct BuildProgressTests {
    /// A stand-in for `swift build` in `directory` that waits for a line on the FIFO `done`, then succeeds; the
    /// invocation and plan that build with it.
    static func standIn(in directory: URL) throws -> (done: FIFO, invocation: SwiftTestInvocation, plan: RunPlan) {
        let done = try FIFO.make(in: directory, named: "done")
        let fakeSwift = directory.appendingPathComponent("swift")
        try writeScript("#!/bin/sh\nread line < '\(done.path)'\n", to: fakeSwift)
        let layout = ResultsLayout(directory.appendingPathComponent("results", isDirectory: true))
        try FileManager.default.createDirectory(at: layout.directory, withIntermediateDirectories: true)
        let rigURL = repositoryRoot.appendingPathComponent("rigs/simulated.json")
        let invocation = SwiftTestInvocation(suites: .package(directory), filter: nil, layout: layout, rig: rigURL, swift: fakeSwift.path)
        let plan = RunPlan(suites: invocation.suites, rigURL: rigURL, rig: try Rig.load(path: rigURL.path), layout: layout)
        return (done, invocation, plan)
    }

    /// The stepped clock's next deadline, or nil when the build ended first (it could not start, say): then
    /// nothing will arm one, and the test says why instead of waiting for ever.
    static func nextDeadline(_ time: VirtualTime, whileBuilding building: Task<String?, Never>) async -> ContinuousClock.Instant? {
        await value(of: { await time.nextDeadline() }, unlessEnded: building)
    }

    @Test func withoutATerminalABuildSaysItGoesOnEverySoOften() async throws {
        let directory = try TemporaryDirectory.make("hil-build")
        defer { TemporaryDirectory.remove(directory) }
        let (done, invocation, plan) = try Self.standIn(in: directory)
        let out = ProgressTests.Lines(), err = ProgressTests.Lines()
        try await withSteppedTime { time in
            let clock = time.clock
            let start = time.now
            // On the clock's loop, so that each tick has run when an advance returns.
            let building = Task(executorPreference: clock.taskExecutor) { () -> String? in
                var printer = ProgressPrinter(RunOutput(isInteractive: false, out: out.append, err: err.append))
                return await Self.build(invocation, plan: plan, deadline: start + .seconds(60), clock: clock, timeoutText: "60 s",
                                          pollInterval: .milliseconds(250), printer: &printer, noteEverySeconds: 1)
            }
            let prefix = "hil run: building the tests of \(directory.lastPathComponent)… "
            func noted() -> [Int] {
                err.text.split(separator: "\n").filter { $0.hasPrefix(prefix) }.compactMap { Int($0.dropFirst(prefix.count).prefix { $0 != " " }) }
            }
            func seconds(upTo last: Int) -> [Int] { last > 0 ? Array(1...last) : [] }
            guard await Self.nextDeadline(time, whileBuilding: building) == start + .milliseconds(250) else {
                Issue.record("the build did not tick every 250 ms: \(await building.value ?? "it succeeded"); \(err.text)")
                return
            }
            // A tick every 250 ms; a note at each whole second, not a nanosecond before, never twice.
            for quarter in 1...12 {
                let tick = start + .milliseconds(250 * quarter)
                #expect(await Self.nextDeadline(time, whileBuilding: building) == tick)
                if quarter % 4 == 0 {
                    await time.advance(to: tick - .nanoseconds(1))
                    #expect(noted() == seconds(upTo: quarter / 4 - 1), "before \(quarter * 250) ms: \(err.text)")
                }
                await time.advance(to: tick)
                #expect(noted() == seconds(upTo: quarter / 4), "at \(quarter * 250) ms: \(err.text)")
            }
            // The build ends: the runner sees it at once, with no tick to wait for.
            await done.writeAndClose("\n")
            #expect(await building.value == nil)
            let layout = plan.layout
            let notes = err.text.split(separator: "\n").filter { $0.hasPrefix(prefix) }
            #expect(notes.map(String.init) == [1, 2, 3].map { "\(prefix)\($0) s (log: \(layout.log.path))" }, "\(err.text)")
            #expect(out.text.isEmpty, "standard output keeps only case and summary lines: \(out.text)")
        }
    }

    @Test func aBuildPastTheRunsDeadlineIsStoppedAtIt() async throws {
        let directory = try TemporaryDirectory.make("hil-build")
        defer { TemporaryDirectory.remove(directory) }
        let (_, invocation, plan) = try Self.standIn(in: directory)
        try await withSteppedTime { time in
            let clock = time.clock
            let deadline = time.now + .seconds(2)
            let building = Task(executorPreference: clock.taskExecutor) { () -> String? in
                var printer = ProgressPrinter(RunOutput(isInteractive: false, out: { _ in }, err: { _ in }))
                return await Self.build(invocation, plan: plan, deadline: deadline, clock: clock, timeoutText: "2 s",
                                          pollInterval: .seconds(1), printer: &printer)
            }
            guard await Self.nextDeadline(time, whileBuilding: building) == deadline - .seconds(1) else {
                Issue.record("the build did not tick every second: \(await building.value ?? "it succeeded")")
                return
            }
            await time.advance(to: deadline - .seconds(1))
            // The last tick is the deadline itself; one nanosecond before it, the build goes on.
            #expect(await time.nextDeadline() == deadline)
            await time.advance(to: deadline - .nanoseconds(1))
            #expect(await time.nextDeadline() == deadline)
            await time.advance(to: deadline)
            // Stopped with SIGINT, which the stand-in dies of: the stop needs none of its grace period.
            let problem = try #require(await building.value)
            #expect(problem.hasPrefix("building the tests of \(directory.path) did not finish within 2 s (--timeout); stopped it (PID "), "\(problem)")
            let log = try String(contentsOf: plan.layout.log, encoding: .utf8)
            #expect(log.hasSuffix("[killed by signal \(SIGINT)]\n"), "\(log)")
        }
    }

    /// The build as `hil run` makes it: `runBuild`, then what its end means (`buildProblem`); nil when it succeeded.
    static func build<C: Clock<Duration>>(_ invocation: SwiftTestInvocation, plan: RunPlan, deadline: C.Instant, clock: C, timeoutText: String,
                                          pollInterval: Duration, printer: inout ProgressPrinter, noteEverySeconds: Int = 10) async -> String? {
        guard let build = await HILRun.runBuild(invocation, plan: plan, deadline: deadline, clock: clock, pollInterval: pollInterval,
                                                printer: &printer, noteEverySeconds: noteEverySeconds) else { return nil }
        return HILRun.buildProblem(build, invocation: invocation, plan: plan, timeoutText: timeoutText)
    }
}
