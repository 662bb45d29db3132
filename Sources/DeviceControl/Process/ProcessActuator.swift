#if canImport(Glibc)
import Support
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Powers an emulated accessory by starting and stopping its process: `on` starts `argv` (no shell,
/// own process group) and waits for `readyPattern` on its output; `off` sends SIGTERM to the group,
/// then SIGKILL after `stopDeadline`. With `pidFile`, another `hil` invocation can stop what this one
/// started (the file names the process by PID and start time: a stale file never gets a reused PID
/// signalled). Its deadlines are kept on `clock` (real time unless a test gives its own).
package actor ProcessActuator: PowerActuator {
    package nonisolated let name: String
    let argv: [String]
    let environment: [String: String]?
    let readyPattern: String?
    let readyDeadline: Duration
    let stopDeadline: Duration
    let pidFile: PidFile?
    let clock: any Clock<Duration>

    private var child: ChildProcess?
    private var output = ChildOutput()
    private var ended: Termination?
    private var readyAfter: Duration?
    private var drainer: Task<Void, Never>?
    /// Signalled on every output and on the child's end: what readiness and stopping wait for.
    private let changed = ChangeSignal()

    /// `readyDeadline` bounds the wait for `readyPattern` after a start, `stopDeadline` the wait for the group
    /// to end after SIGTERM; both on `clock`.
    package init(name: String, argv: [String], environment: [String: String]? = nil, readyPattern: String? = nil,
                readyDeadline: Duration = .seconds(10), stopDeadline: Duration = .seconds(5), pidFile: String? = nil,
                clock: some Clock<Duration> = ContinuousClock()) throws {
        guard let first = argv.first, !first.isEmpty else { throw PowerSwitchError(.invalidInput, "\(name): argv is empty") }
        if let readyPattern, (try? NSRegularExpression(pattern: readyPattern)) == nil {
            throw PowerSwitchError(.invalidInput, "\(name): readyPattern '\(readyPattern)' is not a valid regular expression")
        }
        self.name = name
        self.argv = argv
        self.environment = environment
        self.readyPattern = readyPattern
        self.readyDeadline = readyDeadline
        self.stopDeadline = stopDeadline
        self.pidFile = pidFile.map(PidFile.init(path:))
        self.clock = clock
    }

    /// The pid of the running process: ours, or the one the pid file names if it is still that process.
    private func runningPID() -> pid_t? {
        if let child, ended == nil { return child.pid }
        if child == nil, case .running(let pid) = pidFile?.read() { return pid }
        return nil
    }

    package func apply(_ power: Power) async throws -> [String] {
        switch power {
        case .on: return try await start(clock: self.clock)
        case .off: return try await stop(clock: self.clock)
        }
    }

    private func start<C: Clock<Duration>>(clock: C) async throws -> [String] {
        if let pid = runningPID() { return ["\(argv[0]) already running (pid \(pid))"] }
        let begin = clock.now
        let due = begin.advanced(by: readyDeadline)
        let started: ChildProcess
        do {
            started = try ChildProcess.spawn(argv, environment: environment)
        } catch let error as ProcessError {
            throw PowerSwitchError(error)
        }
        child = started
        output = ChildOutput()
        ended = nil
        readyAfter = nil
        drainer = Task { [weak self] in
            for await event in started.events { await self?.record(event) }
        }
        if let pidFile {
            do { try pidFile.write(started.pid) } catch {
                started.signalGroup(SIGKILL)
                throw PowerSwitchError(.deviceFailure, "\(name): cannot write pid file \(pidFile.path): \(error.localizedDescription)")
            }
        }
        var steps = ["started `\(argv.joined(separator: " "))` (pid \(started.pid))"]
        guard let readyPattern else { return steps }
        // Woken by every output and by the end, or at the deadline: the pattern is looked for as soon as the
        // output arrives, and the deadline is exactly `readyDeadline` on `clock`.
        while true {
            let seen = changed.count
            if StatePattern.matches(readyPattern, output.text) {
                let after = begin.duration(to: clock.now)
                readyAfter = after
                steps.append("ready: output matched '\(readyPattern)' after \(after.seconds)")
                return steps
            }
            if let ended {
                throw PowerSwitchError(.deviceFailure, "\(name): `\(argv[0])` ended (\(ended)) before printing '\(readyPattern)'; its output: \(tail)")
            }
            if clock.now >= due {
                started.signalGroup(SIGKILL)
                throw PowerSwitchError(.timeout, "\(name): `\(argv[0])` (pid \(started.pid)) did not print '\(readyPattern)' within \(readyDeadline.seconds) (killed); its output: \(tail)")
            }
            await changed.wait(after: seen, until: due, clock: clock)
            try Task.checkCancellation()
        }
    }

    private func stop<C: Clock<Duration>>(clock: C) async throws -> [String] {
        guard let pid = runningPID() else {
            // A pid file left by a process that ended on its own would name its PID for ever: removed, so that
            // no later process given that PID is taken for it.
            if let pidFile, case .stale(let stale) = pidFile.read() {
                pidFile.remove()
                return ["\(argv[0]) was not running (removed the stale pid file \(pidFile.path), which named pid \(stale))"]
            }
            return ["\(argv[0]) was not running"]
        }
        let begin = clock.now
        _ = kill(-pid, SIGTERM)
        var steps = ["sent SIGTERM to process group \(pid)"]
        if await waitGone(pid, until: begin.advanced(by: stopDeadline), clock: clock) == false {
            _ = kill(-pid, SIGKILL)
            steps.append("still running after \(stopDeadline.seconds): sent SIGKILL")
            if await waitGone(pid, until: clock.now.advanced(by: .seconds(2)), clock: clock) == false {
                throw PowerSwitchError(.timeout, "\(name): pid \(pid) survived SIGTERM and, for 2 s, SIGKILL")
            }
        }
        steps.append("pid \(pid) ended (\(ended.map(\.description) ?? "gone")) after \(begin.duration(to: clock.now).seconds)")
        pidFile?.remove()
        return steps
    }

    /// True once the process is gone by `deadline` on `clock`: our child when our watcher has reaped it (its
    /// end wakes the wait), another process (a pid file's) when it can no longer be signalled, looked at every
    /// 20 ms. Its waits hold in a cancelled task too: stopping after an interrupt still needs its grace period.
    private func waitGone<C: Clock<Duration>>(_ pid: pid_t, until deadline: C.Instant, clock: C) async -> Bool {
        let ours = child?.pid == pid
        let changed = self.changed
        while true {
            let seen = changed.count
            if ours ? ended != nil : kill(pid, 0) != 0 { return true }
            if clock.now >= deadline { return false }
            // Each wait is a task of its own, which the caller's cancellation does not cut short.
            if ours {
                await Task { await changed.wait(after: seen, until: deadline, clock: clock) }.value
            } else {
                let next = min(clock.now.advanced(by: .milliseconds(20)), deadline)
                await Task { try? await Task.sleep(until: next, clock: clock) }.value
            }
        }
    }

    private func record(_ event: ChildEvent) {
        if case .ended(let termination) = event { ended = termination } else { output.record(event) }
        changed.signal()
    }

    private var tail: String { output.tail }

    package func status() async throws -> PowerStatus {
        if let pid = runningPID() { return PowerStatus(state: .on, detail: "pid \(pid) running") }
        if let ended { return PowerStatus(state: .off, detail: "last run ended (\(ended))") }
        return PowerStatus(state: .off, detail: "not running")
    }

    package func confirm(_ power: Power) async throws -> String? {
        switch power {
        case .on:
            guard let pid = runningPID() else {
                throw PowerSwitchError(.verificationFailed, "\(name): the process ended right after starting (\(ended.map(\.description) ?? "unknown")); its output: \(tail)")
            }
            return "pid \(pid) running" + (readyAfter.map { ", ready after \($0.seconds)" } ?? "")
        case .off:
            if let pid = runningPID() {
                throw PowerSwitchError(.verificationFailed, "\(name): pid \(pid) is still running after off")
            }
            return "process not running"
        }
    }
}
