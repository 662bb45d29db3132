#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Powers an emulated accessory by starting and stopping its process: `on` starts `argv` (no shell,
/// own process group) and waits for `readyPattern` on its output; `off` sends SIGTERM to the group,
/// then SIGKILL after `stopDeadline`. With `pidFile`, another `hil` invocation can stop what this one
/// started.
public actor ProcessActuator: PowerActuator {
    public nonisolated let name: String
    let argv: [String]
    let environment: [String: String]?
    let readyPattern: String?
    let readyDeadline: Duration
    let stopDeadline: Duration
    let pidFile: String?

    private var child: ChildProcess?
    private var output = ""
    private var ended: Termination?
    private var readyAfter: Duration?
    private var drainer: Task<Void, Never>?

    public init(name: String, argv: [String], environment: [String: String]? = nil, readyPattern: String? = nil,
                readyDeadline: Duration = .seconds(10), stopDeadline: Duration = .seconds(5), pidFile: String? = nil) throws {
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
        self.pidFile = pidFile
    }

    /// The pid of the running process: ours, or the one the pid file names if it is alive.
    private func runningPID() -> pid_t? {
        if let child, ended == nil { return child.pid }
        if child == nil, let pidFile, let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
           let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0, kill(pid, 0) == 0 {
            return pid
        }
        return nil
    }

    public func apply(_ power: Power) async throws -> [String] {
        switch power {
        case .on: return try await start()
        case .off: return try await stop()
        }
    }

    private func start() async throws -> [String] {
        if let pid = runningPID() { return ["\(argv[0]) already running (pid \(pid))"] }
        let clock = ContinuousClock()
        let begin = clock.now
        let started = try ChildProcess.spawn(argv, environment: environment)
        child = started
        output = ""
        ended = nil
        readyAfter = nil
        drainer = Task { [weak self] in
            for await event in started.events { await self?.record(event) }
        }
        if let pidFile {
            do { try "\(started.pid)\n".write(toFile: pidFile, atomically: true, encoding: .utf8) } catch {
                started.signalGroup(SIGKILL)
                throw PowerSwitchError(.deviceFailure, "\(name): cannot write pid file \(pidFile): \(error.localizedDescription)")
            }
        }
        var steps = ["started `\(argv.joined(separator: " "))` (pid \(started.pid))"]
        guard let readyPattern else { return steps }
        while true {
            if StatePattern.matches(readyPattern, output) {
                readyAfter = clock.now - begin
                steps.append("ready: output matched '\(readyPattern)' after \((clock.now - begin).seconds)")
                return steps
            }
            if let ended {
                throw PowerSwitchError(.deviceFailure, "\(name): `\(argv[0])` ended (\(ended)) before printing '\(readyPattern)'; its output: \(tail)")
            }
            if clock.now - begin >= readyDeadline {
                started.signalGroup(SIGKILL)
                throw PowerSwitchError(.timeout, "\(name): `\(argv[0])` (pid \(started.pid)) did not print '\(readyPattern)' within \(readyDeadline.seconds) (killed); its output: \(tail)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    private func stop() async throws -> [String] {
        guard let pid = runningPID() else { return ["\(argv[0]) was not running"] }
        let clock = ContinuousClock()
        let begin = clock.now
        _ = kill(-pid, SIGTERM)
        var steps = ["sent SIGTERM to process group \(pid)"]
        if await waitGone(pid, within: stopDeadline) == false {
            _ = kill(-pid, SIGKILL)
            steps.append("still running after \(stopDeadline.seconds): sent SIGKILL")
            if await waitGone(pid, within: .seconds(2)) == false {
                throw PowerSwitchError(.timeout, "\(name): pid \(pid) survived SIGTERM and, for 2 s, SIGKILL")
            }
        }
        steps.append("pid \(pid) ended (\(ended.map(\.description) ?? "gone")) after \((clock.now - begin).seconds)")
        if let pidFile { try? FileManager.default.removeItem(atPath: pidFile) }
        return steps
    }

    /// True once the process is gone: reaped by our watcher, or (not our child) no longer signalable.
    private func waitGone(_ pid: pid_t, within limit: Duration) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while clock.now < deadline {
            if child?.pid == pid ? ended != nil : kill(pid, 0) != 0 { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return child?.pid == pid ? ended != nil : kill(pid, 0) != 0
    }

    private func record(_ event: ChildEvent) {
        switch event {
        case .stdout(let bytes), .stderr(let bytes):
            output += String(decoding: bytes, as: UTF8.self)
            if output.count > 65_536 { output = String(output.suffix(32_768)) }
        case .ended(let termination):
            ended = termination
        }
    }

    private var tail: String {
        let lines = output.split(whereSeparator: \.isNewline).suffix(3).joined(separator: " | ")
        return lines.isEmpty ? "(none)" : String(lines.suffix(300))
    }

    public func status() async throws -> PowerStatus {
        if let pid = runningPID() { return PowerStatus(state: .on, detail: "pid \(pid) running") }
        if let ended { return PowerStatus(state: .off, detail: "last run ended (\(ended))") }
        return PowerStatus(state: .off, detail: "not running")
    }

    public func confirm(_ power: Power) async throws -> String? {
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
