import DeviceControl
import Foundation
import Testing
import TestSupport

/// `ChildProcess`: what its watcher thread reads reaches the consumer whole, however late the consumer is.
struct ChildProcessTests {
    /// 6,000 lines written one at a time, 0.1 ms apart (as an unbuffered Python child writes), are read as
    /// thousands of chunks; the consumer starts only after the child has been reaped, as a task waiting for a
    /// cooperative thread would. Every line must be there, in order: a buffer of the newest 4,096 chunks
    /// dropped the first.
    @Test func everyLineReachesAConsumerThatStartsAfterTheChildEnded() async throws {
        let script = "$| = 1; for my $i (0..5999) { print \"$i\\n\"; select(undef, undef, undef, 0.0001) }"
        let child = try ChildProcess.spawn(["perl", "-e", script])
        let reaped = await eventually(within: .seconds(20)) { kill(child.pid, 0) != 0 && errno == ESRCH }
        try #require(reaped, "perl (pid \(child.pid)) was not reaped within 20 s")
        let output = await child.collect()
        #expect(output.termination == .exited(0))
        let lines = String(decoding: output.stdout, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 6000, "\(lines.count) of 6000 lines, first \(lines.first ?? "none")")
        #expect(lines.elementsEqual((0..<6000).map { "\($0)" }.lazy.map { Substring($0) }))
    }

    /// A command that ends by itself before its deadline is an exit, not a timeout.
    @Test func aCommandEndingBeforeItsDeadlineIsNotATimeout() async throws {
        let result = try await ChildProcess.run(["sh", "-c", "echo refused >&2; exit 4"], deadline: .seconds(10))
        #expect(result.termination == .exited(4))
        #expect(!result.timedOut)
        #expect(result.lastLine == "refused")
    }

    /// A command still running at its deadline is killed (its group gets SIGTERM) and is a timeout.
    @Test func aCommandRunningPastItsDeadlineIsKilledAndATimeout() async throws {
        let result = try await ChildProcess.run(["sleep", "30"], deadline: .milliseconds(200))
        #expect(result.termination == .signalled(SIGTERM))
        #expect(result.timedOut)
    }
}
