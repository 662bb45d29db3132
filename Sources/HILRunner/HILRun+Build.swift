import Foundation
import HILResults

/// `swift build --build-tests` of the suites, before the tests run: a compile error is told apart from a test
/// failure.
extension HILRun {
    /// Runs `swift build --build-tests`, showing the seconds spent (a note every `noteEverySeconds` without a
    /// terminal); how it ended, or nil when there is nothing to build.
    static func runBuild<C: Clock<Duration>>(_ invocation: SwiftTestInvocation, plan: RunPlan, deadline: C.Instant, clock: C,
                                             pollInterval: Duration, children: RunningChildren? = nil, printer: inout ProgressPrinter,
                                             noteEverySeconds: Int = 10) async -> ChildSupervisor.Supervised? {
        guard let buildCommand = invocation.buildCommand else { return nil }
        let layout = plan.layout
        let directory = plan.suites.directory
        var shownSecond = -1
        var notedTen = 0 // notes given so far, one per `noteEverySeconds`
        return await ChildSupervisor.supervise(buildCommand, environment: [:], log: layout.log, deadline: deadline, clock: clock,
                                               pollInterval: pollInterval, children: children) { elapsed in
            guard Int(elapsed) != shownSecond else { return }
            shownSecond = Int(elapsed)
            printer.status("building the tests of \(directory.lastPathComponent)… \(shownSecond) s")
            // Without a terminal the status line is not shown: a note every 10 s says the build goes on.
            if !printer.output.isInteractive, shownSecond / noteEverySeconds > notedTen {
                notedTen = shownSecond / noteEverySeconds
                printer.note("building the tests of \(directory.lastPathComponent)… \(notedTen * noteEverySeconds) s (log: \(layout.log.path))")
            }
        }
    }

    /// Why a build that ended as `build` did keeps the tests from running; nil when it succeeded.
    static func buildProblem(_ build: ChildSupervisor.Supervised, invocation: SwiftTestInvocation, plan: RunPlan, timeoutText: String) -> String? {
        let layout = plan.layout
        let directory = plan.suites.directory
        let buildCommand = invocation.buildCommand ?? []
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
}
