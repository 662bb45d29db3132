import Foundation
import Roles
import Support
import Testing
import TestSupport
@testable import DeviceControl

/// `ProcessActuator` starting and stopping real processes (`sh`, `sleep`). Its readiness and stop deadlines
/// are kept on a stepped clock: readiness and ends are awaited as they happen, and a deadline comes exactly
/// when the test advances the clock to it, never because the machine is slow.
@Suite(.tags(.process)) struct ProcessActuatorTests {
    @Test func startsUntilReadyAndStopsTheWholeGroup() async throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: marker) }
        try await withSteppedTime { time in
            // The accessory emulator starts a grandchild; off must stop both.
            let actuator = try ProcessActuator(name: "emulated-sensor",
                argv: ["sh", "-c", "sleep 30 & echo $! > \"$0\"; echo 'advertising as Sensor'; wait", marker],
                readyPattern: "advertising", readyDeadline: .seconds(5), stopDeadline: .seconds(2), clock: time.clock)
            let steps = try await actuator.apply(.on)
            #expect(steps.last == "ready: output matched 'advertising' after 0 ms", "readiness is the output's arrival, not a poll")
            #expect(try await actuator.status().state == .on)
            let confirmation = try await actuator.confirm(.on)
            #expect(confirmation?.hasPrefix("pid ") == true)
            let grandchild = try #require(pid_t(try String(contentsOfFile: marker, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
            #expect(isRunning(grandchild))

            let offSteps = try await actuator.apply(.off)
            #expect(offSteps.contains { $0.contains("ended (killed by signal 15) after 0 ms") }, "\(offSteps)")
            #expect(try await actuator.status().state == .off)
            #expect(try await actuator.confirm(.off) == "process not running")
            // The grandchild held the child's output open, so it had closed it (it was exiting) before the
            // child's end was seen; its last moment of exit is the kernel's.
            #expect(await exited(grandchild), "the grandchild in the same process group must be gone")
        }
    }

    @Test func aProcessThatDiesBeforeReadyIsAnError() async throws {
        try await withSteppedTime { time in
            let actuator = try ProcessActuator(name: "broken", argv: ["sh", "-c", "echo 'bind: address in use' >&2; exit 3"],
                                               readyPattern: "ready", readyDeadline: .seconds(5), clock: time.clock)
            let error = await #expect(throws: PowerSwitchError.self) { try await actuator.apply(.on) }
            #expect(error?.message == "broken: `sh` ended (exit 3) before printing 'ready'; its output: bind: address in use")
        }
    }

    @Test func readinessHasADeadline() async throws {
        try await withSteppedTime { time in
            let actuator = try ProcessActuator(name: "mute", argv: ["sleep", "30"], readyPattern: "ready", readyDeadline: .milliseconds(300),
                                               clock: time.clock)
            let due = time.now + .milliseconds(300)
            let starting = Task { try await actuator.apply(.on) }
            #expect(await time.nextDeadline() == due)
            await time.advance(to: due - .nanoseconds(1))
            #expect(await time.nextDeadline() == due, "one nanosecond before its deadline it still waits")
            await time.advance(to: due)
            let error = await #expect(throws: PowerSwitchError.self) { try await starting.value }
            #expect(error?.kind == .timeout)
            #expect(error?.message.contains("did not print 'ready' within 300 ms (killed)") == true)
        }
    }

    @Test func aTermIgnoringProcessIsKilled() async throws {
        try await withSteppedTime { time in
            let actuator = try ProcessActuator(name: "stubborn", argv: ["sh", "-c", "trap '' TERM; echo up; while true; do sleep 0.1; done"],
                                               readyPattern: "up", stopDeadline: .milliseconds(300), clock: time.clock)
            _ = try await actuator.apply(.on)
            // The readiness wait's deadline was cancelled: the clock's loop looks at its timers again, so the
            // next deadline it reports is the stop's.
            await time.advance(by: .zero)
            let due = time.now + .milliseconds(300)
            let stopping = Task { try await actuator.apply(.off) }
            #expect(await time.nextDeadline() == due)
            await time.advance(to: due - .nanoseconds(1))
            #expect(await time.nextDeadline() == due, "one nanosecond before its stop deadline it has not had SIGKILL")
            await time.advance(to: due)
            let steps = try await stopping.value
            #expect(steps.contains("still running after 300 ms: sent SIGKILL"), "\(steps)")
            #expect(steps.last?.hasSuffix("ended (killed by signal 9) after 300 ms") == true, "\(steps)")
            #expect(try await actuator.status().state == .off)
        }
    }

    /// Another instance stops what the pid file names: not its child, so it looks every 20 ms (real time,
    /// the default clock) whether the pid still answers; the starter's watcher thread reaps it at once.
    @Test func aPidFileLetsAnotherInstanceStopIt() async throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("emu-\(UUID().uuidString).pid").path
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        let starter = try ProcessActuator(name: "emu", argv: ["sleep", "30"], pidFile: pidFile)
        _ = try await starter.apply(.on)
        let fields = try String(contentsOfFile: pidFile, encoding: .utf8).split(whereSeparator: \.isWhitespace).map(String.init)
        let pid = try #require(fields.first.flatMap { pid_t($0) })
        // The start time beside it is the kernel's for that process: field 22 of /proc/PID/stat.
        #expect(fields.dropFirst().first == kernelStartTime(of: pid))
        let stopper = try ProcessActuator(name: "emu", argv: ["sleep", "30"], pidFile: pidFile)
        #expect(try await stopper.status() == PowerStatus(state: .on, detail: "pid \(pid) running"))
        let steps = try await stopper.apply(.off)
        #expect(steps.first == "sent SIGTERM to process group \(pid)")
        #expect(!FileManager.default.fileExists(atPath: pidFile))
        _ = try await starter.apply(.off)
    }

    /// A pid file whose process has ended while its PID went to another process (here: a living `sleep` that
    /// the file names with another start time, and one named by an older hil's file, which holds the PID
    /// alone) is stale: the switch reads off, stopping it signals nothing and removes the file, and starting
    /// starts its own process.
    @Test(arguments: ["%d 1\n", "%d\n"]) func aStalePidFileNeverSignalsWhoHasItsPidNow(_ format: String) async throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("emu-\(UUID().uuidString).pid").path
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        let bystander = try ChildProcess.spawn(["sleep", "30"])
        defer { bystander.signalGroup(SIGKILL) }
        try String(format: format, bystander.pid).write(toFile: pidFile, atomically: true, encoding: .utf8)

        let actuator = try ProcessActuator(name: "emu", argv: ["sleep", "30"], pidFile: pidFile)
        #expect(try await actuator.status() == PowerStatus(state: .off, detail: "not running"))
        let steps = try await actuator.apply(.off)
        #expect(steps == ["sleep was not running (removed the stale pid file \(pidFile), which named pid \(bystander.pid))"])
        #expect(!FileManager.default.fileExists(atPath: pidFile))
        // (Stopping waits until the process it signalled is gone, so a signal sent to it would show here.)
        #expect(isRunning(bystander.pid), "the process that has the PID now was not signalled")

        try String(format: format, bystander.pid).write(toFile: pidFile, atomically: true, encoding: .utf8)
        let started = try await actuator.apply(.on)
        #expect(started.first?.hasPrefix("started `sleep 30` (pid ") == true, "\(started)")
        _ = try await actuator.apply(.off)
        #expect(isRunning(bystander.pid))
    }

    @Test func badConfigurationIsRejected() {
        #expect(throws: PowerSwitchError.self) { try ProcessActuator(name: "x", argv: []) }
        #expect(throws: PowerSwitchError.self) { try ProcessActuator(name: "x", argv: ["true"], readyPattern: "(") }
    }
}

/// Alive and not a zombie (an orphan's zombie lingers until init reaps it).
func isRunning(_ pid: pid_t) -> Bool {
    guard kill(pid, 0) == 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { return false }
    let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
    return state != "Z" && state != "X"
}

/// Whether `pid` (not our child, so nothing tells us of its end) has stopped running: looked at every 10 ms
/// for at most 5 s — a process already past closing its files is gone within microseconds; 5 s is for a
/// machine starved of CPU.
func exited(_ pid: pid_t) async -> Bool {
    await eventually(within: .seconds(5)) { !isRunning(pid) }
}

/// Field 22 of /proc/PID/stat (the start time in clock ticks after boot), counted after the command name's
/// closing parenthesis as proc(5) says.
func kernelStartTime(of pid: pid_t) -> String? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    return fields.count > 19 ? String(fields[19]) : nil
}
