import Foundation
import Testing
@testable import DeviceControl

@Suite struct CommandActuatorTests {
    static let pattern = try? StatePattern(on: "^ON$", off: "^OFF$")

    /// A PDU simulated by a state file and `sh`: the argv is the command, no shell of ours is involved.
    static func pdu(_ file: String, deadline: Duration = .seconds(5)) throws -> CommandActuator {
        try CommandActuator(name: "pdu-outlet-3",
                            on: ["sh", "-c", "echo ON > \"$0\"; echo switched on", file],
                            off: ["sh", "-c", "echo OFF > \"$0\"", file],
                            status: ["cat", file], statePattern: pattern, deadline: deadline)
    }

    @Test func onOffAndStatusThroughRealProcesses() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pdu-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let pdu = try Self.pdu(file)
        let steps = try await pdu.apply(.on)
        #expect(steps.first?.hasPrefix("ran `sh -c echo ON") == true)
        #expect(steps.last == "it said: switched on")
        #expect(try await pdu.status().state == .on)
        _ = try await pdu.apply(.off)
        let status = try await pdu.status()
        #expect(status.state == .off)
        #expect(status.detail == "`cat \(file)` said 'OFF'")
    }

    /// Killed, not waited for: the command's process (its pid written by itself) is gone when the error comes,
    /// long before its 30 s sleep would have ended. (Not a wall-clock bound, which a loaded CI machine broke.)
    @Test func aCommandPastItsDeadlineIsKilledAndNamed() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("slow-pdu-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let argv = ["sh", "-c", "echo $$ > \"$0\"; exec sleep 30", file]
        let pdu = try CommandActuator(name: "slow-pdu", on: argv, off: ["true"], deadline: .milliseconds(300))
        let error = await #expect(throws: PowerSwitchError.self) { try await pdu.apply(.on) }
        #expect(error?.kind == .timeout)
        #expect(error?.message == "slow-pdu: on command `\(argv.joined(separator: " "))` did not finish within 300 ms (killed)")
        let written = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let pid = try #require(pid_t(written), "the command wrote '\(written)' as its pid")
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "the timed-out command (pid \(pid)) still exists after the error")
    }

    @Test func aFailingCommandQuotesItsLastWords() async throws {
        let pdu = try CommandActuator(name: "pdu", on: ["sh", "-c", "echo 'outlet 3: login failed' >&2; exit 4"], off: ["true"])
        let error = await #expect(throws: PowerSwitchError.self) { try await pdu.apply(.on) }
        #expect(error?.message == "pdu: on command `sh -c echo 'outlet 3: login failed' >&2; exit 4` ended with exit 4: outlet 3: login failed")
    }

    @Test func aMissingProgramIsNotFound() async throws {
        let pdu = try CommandActuator(name: "pdu", on: ["/nonexistent/pductl", "on"], off: ["true"])
        let error = await #expect(throws: PowerSwitchError.self) { try await pdu.apply(.on) }
        #expect(error?.kind == .notFound)
        #expect(error?.message.contains("cannot start `/nonexistent/pductl on`") == true)
    }

    @Test func outputSayingTheOppositeIsAnError() async throws {
        let pdu = try CommandActuator(name: "pdu", on: ["echo", "OFF"], off: ["true"], statePattern: Self.pattern)
        let error = await #expect(throws: PowerSwitchError.self) { try await pdu.apply(.on) }
        #expect(error?.message == "pdu: `echo OFF` printed 'OFF', which says off after on")
    }

    @Test func statusWithoutCommandOrPatternIsUnknown() async throws {
        let bare = try CommandActuator(name: "pdu", on: ["true"], off: ["true"])
        #expect(try await bare.status().state == .unknown(reason: "no status command configured"))
        let noPattern = try CommandActuator(name: "pdu", on: ["true"], off: ["true"], status: ["echo", "outlet 3 is ON"])
        let status = try await noPattern.status()
        #expect(status.state == .unknown(reason: "no statePattern to read the status command's output"))
        #expect(status.detail == "outlet 3 is ON")
    }

    @Test func ambiguousOutputIsUnknown() throws {
        let pattern = try StatePattern(on: "ON", off: "OFF")
        #expect(pattern.state(of: "ON OFF") == .unknown(reason: "output matches both the on pattern 'ON' and the off pattern 'OFF'"))
        #expect(pattern.state(of: "nothing") == .unknown(reason: "output matches neither the on pattern 'ON' nor the off pattern 'OFF'"))
        #expect(throws: PowerSwitchError.self) { try StatePattern(on: "(", off: "x") }
    }

    @Test func emptyCommandsAreRejected() {
        #expect(throws: PowerSwitchError.self) { try CommandActuator(name: "pdu", on: [], off: ["true"]) }
        #expect(throws: PowerSwitchError.self) { try CommandActuator(name: "pdu", on: ["true"], off: [""]) }
    }
}
