/// A switch driven by commands: one argv per action, run without a shell, each with a deadline; the
/// status command's stdout read through `statePattern`. For network PDUs (`snmpset`, a vendor CLI,
/// `curl` to a smart plug) and anything else a command can switch. The deadline is kept on `clock` (real
/// time unless a test gives its own).
package struct CommandActuator: PowerActuator {
    package let name: String
    package let onCommand: [String]
    package let offCommand: [String]
    package let statusCommand: [String]?
    package let statePattern: StatePattern?
    package let deadline: Duration
    /// The clock `deadline` is kept on.
    package let clock: any Clock<Duration>

    package init(name: String, on: [String], off: [String], status: [String]? = nil, statePattern: StatePattern? = nil,
                deadline: Duration = .seconds(10), clock: some Clock<Duration> = ContinuousClock()) throws {
        for (key, argv) in [("on", on), ("off", off), ("status", status ?? ["-"])] where argv.isEmpty || argv[0].isEmpty {
            throw PowerSwitchError(.invalidInput, "\(name): the \(key) command is empty")
        }
        self.name = name
        self.onCommand = on
        self.offCommand = off
        self.statusCommand = status
        self.statePattern = statePattern
        self.deadline = deadline
        self.clock = clock
    }

    package func apply(_ power: Power) async throws -> [String] {
        let result = try await run(power == .on ? onCommand : offCommand, action: power.rawValue)
        var steps = ["ran `\(result.commandLine)` (\(result.termination), \(result.elapsed.seconds))"]
        if let statePattern, case let said = statePattern.state(of: result.stdout), said == PowerState(power.opposite) {
            throw PowerSwitchError(.deviceFailure, "\(name): `\(result.commandLine)` printed '\(result.lastLine)', which says \(said) after \(power)")
        }
        if !result.lastLine.isEmpty { steps.append("it said: \(result.lastLine)") }
        return steps
    }

    package func status() async throws -> PowerStatus {
        guard let statusCommand else {
            return PowerStatus(state: .unknown(reason: "no status command configured"), detail: "")
        }
        let result = try await run(statusCommand, action: "status")
        let output = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let statePattern else {
            return PowerStatus(state: .unknown(reason: "no statePattern to read the status command's output"), detail: String(output.prefix(200)))
        }
        return PowerStatus(state: statePattern.state(of: result.stdout), detail: "`\(result.commandLine)` said '\(String(output.prefix(200)))'")
    }

    /// Runs one action's argv; a deadline or a non-zero exit is an error naming the command and its last words.
    func run(_ argv: [String], action: String) async throws -> CommandResult {
        let result: CommandResult
        do {
            result = try await ChildProcess.run(argv, deadline: deadline, clock: self.clock)
        } catch let error as ProcessError {
            throw PowerSwitchError(error)
        }
        if result.timedOut {
            throw PowerSwitchError(.timeout, "\(name): \(action) command `\(result.commandLine)` did not finish within \(deadline.seconds) (killed)"
                + (result.lastLine.isEmpty ? "" : "; last output: \(result.lastLine)"))
        }
        guard result.termination.succeeded else {
            throw PowerSwitchError(.deviceFailure, "\(name): \(action) command `\(result.commandLine)` ended with \(result.termination)"
                + (result.lastLine.isEmpty ? "" : ": \(result.lastLine)"))
        }
        return result
    }
}

import Support
import Foundation
