import Support
import Foundation
import Testing
import TestSupport

/// `ChildProcess`: what its watcher thread reads reaches the consumer whole, however late the consumer is;
/// `run`'s deadline is kept on the caller's clock, here a stepped one, so it comes exactly when the test says.
@Suite(.tags(.process)) struct ChildProcessTests {
    /// 6,000 lines written one at a time, 0.1 ms apart (as an unbuffered Python child writes), are read as
    /// thousands of chunks; the consumer starts only after the child has been reaped, as a task waiting for a
    /// cooperative thread would. Every line must be there, in order: a buffer of the newest 4,096 chunks
    /// dropped the first.
    @Test func everyLineReachesAConsumerThatStartsAfterTheChildEnded() async throws {
        let script = "$| = 1; for my $i (0..5999) { print \"$i\\n\"; select(undef, undef, undef, 0.0001) }"
        let child = try ChildProcess.spawn(["perl", "-e", script])
        // The reaping is the watcher thread's, seen only as the pid going away: polled. 20 s: perl's 6,000
        // writes take about a second, several on a loaded 2-core machine.
        let reaped = await eventually(within: .seconds(20)) { kill(child.pid, 0) != 0 && errno == ESRCH }
        try #require(reaped, "perl (pid \(child.pid)) was not reaped within 20 s")
        let output = await child.collect()
        #expect(output.termination == .exited(0))
        let lines = String(decoding: output.stdout, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 6000, "\(lines.count) of 6000 lines, first \(lines.first ?? "none")")
        #expect(lines.elementsEqual((0..<6000).map { "\($0)" }.lazy.map { Substring($0) }))
    }

    /// A command that ends by itself before its deadline is an exit, not a timeout: on a clock only the test
    /// moves, the 10 s deadline cannot come, however long the machine takes to run it.
    @Test func aCommandEndingBeforeItsDeadlineIsNotATimeout() async throws {
        try await withSteppedTime { time in
            let result = try await ChildProcess.run(["sh", "-c", "echo refused >&2; exit 4"], deadline: .seconds(10), clock: time.clock)
            #expect(result.termination == .exited(4))
            #expect(!result.timedOut)
            #expect(result.lastLine == "refused")
            #expect(result.elapsed == .zero, "no time passed on the test's clock")
        }
    }

    /// A command still running at its deadline is killed (its group gets SIGTERM) at exactly that instant of
    /// the caller's clock, and is a timeout.
    @Test func aCommandRunningPastItsDeadlineIsKilledAndATimeout() async throws {
        try await withSteppedTime { time in
            let start = time.now
            let due = start + .milliseconds(200)
            let running = Task { try await ChildProcess.run(["sleep", "30"], deadline: .milliseconds(200), clock: time.clock) }
            #expect(await time.nextDeadline() == due, "the killer waits for the deadline the call was given")
            await time.advance(to: due - .nanoseconds(1))
            #expect(await time.nextDeadline() == due, "one nanosecond before the deadline the killer still waits")
            await time.advance(to: due)
            let result = try await running.value
            #expect(result.termination == .signalled(SIGTERM))
            #expect(result.timedOut)
            #expect(result.elapsed == .milliseconds(200))
        }
    }

    /// A program that is not there is `ProcessError.notFound`, naming it: no process starts.
    @Test func aMissingProgramIsNotFound() {
        #expect {
            _ = try ChildProcess.spawn(["/nonexistent/hil-no-such-program"])
        } throws: { error in
            (error as? ProcessError)?.kind == .notFound && "\(error)".contains("/nonexistent/hil-no-such-program")
        }
    }
}
