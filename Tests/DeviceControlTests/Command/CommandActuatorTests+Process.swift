import Foundation
import EventLoops
import Testing
import TestSupport
@testable import DeviceControl

/// `CommandActuator` running its commands as real processes (`sh`, `cat`, `echo`), each under its deadline,
/// kept on a stepped clock: a command that exits at once is never "past its deadline", however loaded the
/// machine, and a command still running is killed at exactly the deadline the test advances to.
@Suite(.tags(.process)) struct CommandActuatorProcessTests {
    static let pattern = try? StatePattern(on: "^ON$", off: "^OFF$")

    /// A PDU simulated by a state file and `sh`: the argv is the command, no shell of ours is involved.
    static func pdu(_ file: String, clock: LoopClock) throws -> CommandActuator {
        try CommandActuator(name: "pdu-outlet-3",
                            on: ["sh", "-c", "echo ON > \"$0\"; echo switched on", file],
                            off: ["sh", "-c", "echo OFF > \"$0\"", file],
                            status: ["cat", file], statePattern: pattern, deadline: .seconds(5), clock: clock)
    }

    @Test func onOffAndStatusThroughRealProcesses() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pdu-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try await withSteppedTime { time in
            let pdu = try Self.pdu(file, clock: time.clock)
            let steps = try await pdu.apply(.on)
            #expect(steps.first == "ran `sh -c echo ON > \"$0\"; echo switched on \(file)` (exit 0, 0 ms)", "no time passes on the test's clock")
            #expect(steps.last == "it said: switched on")
            #expect(try await pdu.status().state == .on)
            _ = try await pdu.apply(.off)
            let status = try await pdu.status()
            #expect(status.state == .off)
            #expect(status.detail == "`cat \(file)` said 'OFF'")
        }
    }

    /// Killed at its deadline, not waited for: the command's process (its pid written by itself, which the test
    /// awaits before it moves the clock) is gone when the error comes, long before its 30 s sleep would have ended.
    @Test func aCommandPastItsDeadlineIsKilledAndNamed() async throws {
        let directory = try TemporaryDirectory.make("slow-pdu")
        defer { TemporaryDirectory.remove(directory) }
        let announced = try FIFO.make(in: directory, named: "pid")
        let argv = ["sh", "-c", "echo $$ > \"$0\"; exec sleep 30", announced.path]
        try await withSteppedTime { time in
            let pdu = try CommandActuator(name: "slow-pdu", on: argv, off: ["true"], deadline: .milliseconds(300), clock: time.clock)
            let due = time.now + .milliseconds(300)
            let applying = Task { try await pdu.apply(.on) }
            let written = await value(of: { await announced.readToEnd() }, unlessEnded: applying)?.trimmingCharacters(in: .whitespacesAndNewlines)
            let pid = try #require(written.flatMap { pid_t($0) }, "the command wrote '\(written ?? "nothing")' as its pid")
            #expect(await time.nextDeadline() == due)
            await time.advance(to: due - .nanoseconds(1))
            #expect(await time.nextDeadline() == due, "one nanosecond before its deadline the command still runs")
            #expect(kill(pid, 0) == 0)
            await time.advance(to: due)
            let error = await #expect(throws: PowerSwitchError.self) { try await applying.value }
            #expect(error?.kind == .timeout)
            #expect(error?.message == "slow-pdu: on command `\(argv.joined(separator: " "))` did not finish within 300 ms (killed)")
            #expect(kill(pid, 0) == -1 && errno == ESRCH, "the timed-out command (pid \(pid)) still exists after the error")
        }
    }

    @Test func aFailingCommandQuotesItsLastWords() async throws {
        try await withSteppedTime { time in
            let pdu = try CommandActuator(name: "pdu", on: ["sh", "-c", "echo 'outlet 3: login failed' >&2; exit 4"], off: ["true"], clock: time.clock)
            let error = await #expect(throws: PowerSwitchError.self) { try await pdu.apply(.on) }
            #expect(error?.message == "pdu: on command `sh -c echo 'outlet 3: login failed' >&2; exit 4` ended with exit 4: outlet 3: login failed")
        }
    }

    @Test func aMissingProgramIsNotFound() async throws {
        let pdu = try CommandActuator(name: "pdu", on: ["/nonexistent/pductl", "on"], off: ["true"])
        let error = await #expect(throws: PowerSwitchError.self) { try await pdu.apply(.on) }
        #expect(error?.kind == .notFound)
        #expect(error?.message.contains("cannot start `/nonexistent/pductl on`") == true)
    }

    @Test func outputSayingTheOppositeIsAnError() async throws {
        try await withSteppedTime { time in
            let pdu = try CommandActuator(name: "pdu", on: ["echo", "OFF"], off: ["true"], statePattern: Self.pattern, clock: time.clock)
            let error = await #expect(throws: PowerSwitchError.self) { try await pdu.apply(.on) }
            #expect(error?.message == "pdu: `echo OFF` printed 'OFF', which says off after on")
        }
    }

    @Test func statusWithoutCommandOrPatternIsUnknown() async throws {
        try await withSteppedTime { time in
            let bare = try CommandActuator(name: "pdu", on: ["true"], off: ["true"], clock: time.clock)
            #expect(try await bare.status().state == .unknown(reason: "no status command configured"))
            let noPattern = try CommandActuator(name: "pdu", on: ["true"], off: ["true"], status: ["echo", "outlet 3 is ON"], clock: time.clock)
            let status = try await noPattern.status()
            #expect(status.state == .unknown(reason: "no statePattern to read the status command's output"))
            #expect(status.detail == "outlet 3 is ON")
        }
    }
}
