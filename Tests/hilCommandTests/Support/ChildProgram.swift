// Test kind: process — starts the `hil` binary and Bumble's scripts, and bounds the waits for them on the wall clock.
import Support
import DeviceControl
import Foundation
import Synchronization
import TestSupport

/// A program the test started (the real `hil` binary, a Bumble script), with its standard input as a
/// pipe and each line of its standard output and error stamped with the time it was read. `stop()`
/// signals only this process, by its PID.
///
/// Started with DeviceControl's `ChildProcess` (posix_spawn; every descriptor close-on-exec from the start,
/// each closed exactly once), not Foundation's `Process`: the test process also serves sockets, and a
/// descriptor closed twice closes whatever reused its number.
///
/// Every wait (`line(within:)`, `exitStatus(within:)`, `drain`, `until(within:)`) awaits the event it is
/// about (a line read, the process's end) and is bounded on the wall clock only in case it never comes: the
/// child runs on real time, and the bounds its callers give say why they are that wide.
final class ChildProgram: Sendable {
    struct Line: Sendable {
        let text: String
        let at: ContinuousClock.Instant
    }

    let name: String
    private let child: ChildProcess
    /// Bumped at every line read, pipe ended and exit: what the waits below wait for.
    private let changes = Changes()
    private let output: Lines
    private let errors: Lines
    private let ending: Ending
    private let inputFD: Mutex<Int32?>

    /// The `hil` executable built beside the test bundle.
    static func hilBinary() throws -> String {
        var directories = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        if let executable = Bundle.main.executableURL { directories.append(executable.deletingLastPathComponent()) }
        directories.append(repositoryRoot.appendingPathComponent(".build/debug"))
        for directory in directories {
            let candidate = directory.appendingPathComponent("hil").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw ChildProgramError("no built hil executable in \(directories.map(\.path)) (swift build --build-tests builds it)")
    }

    /// Starts `path` with `arguments` in this process's working directory (the package root under `swift test`),
    /// with `environment` added to this process's.
    init(_ path: String, _ arguments: [String], name: String, environment: [String: String]? = nil) throws {
        self.name = name
        output = Lines(changes)
        errors = Lines(changes)
        ending = Ending(changes)
        child = try ChildProcess.spawn([path] + arguments, environment: environment, standardInput: true)
        inputFD = Mutex(child.input)
        let (output, errors, ending) = (output, errors, ending)
        let events = child.events
        Task {
            for await event in events {
                switch event {
                case .stdout(let bytes): output.append(bytes)
                case .stderr(let bytes): errors.append(bytes)
                case .ended(let how): ending.set(how)
                }
            }
            output.end()
            errors.end()
        }
    }

    var pid: Int32 { child.pid }
    var isRunning: Bool { ending.termination == nil }

    /// Writes one line to its standard input.
    func send(_ line: String) throws {
        guard let fd = inputFD.withLock({ $0 }) else { throw ChildProgramError("\(name): its standard input is closed") }
        let bytes = Array((line + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { raw in raw.baseAddress.map { write(fd, $0 + written, bytes.count - written) } ?? -1 }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { throw ChildProgramError("\(name): writing its standard input failed: errno \(errno)") }
            written += result
        }
    }

    /// Closes its standard input (end of file).
    func closeInput() throws {
        let fd = inputFD.withLock { fd -> Int32? in
            defer { fd = nil }
            return fd
        }
        if let fd { close(fd) }
    }

    deinit {
        try? closeInput()
    }

    /// The next line of standard output not yet taken that satisfies `predicate`, or nil after `timeout`
    /// (or once standard output has ended without one).
    func line(within timeout: Duration, where predicate: @Sendable (String) -> Bool = { _ in true }) async -> Line? {
        var found: Line?
        _ = await changes.until(within: timeout) {
            found = output.take(where: predicate)
            return found != nil || output.ended
        }
        return found
    }

    /// Waits up to `timeout` for both pipes to reach end of file (after the process exited). Two seconds by
    /// default: the pipes end as the process exits, this is only for a grandchild that kept them open.
    func drain(within timeout: Duration = .seconds(2)) async {
        _ = await changes.until(within: timeout) { output.ended && errors.ended }
    }

    /// Waits up to `timeout` for `condition` (of what the program printed, or whether it runs) to hold,
    /// looking again at each line it prints and at its exit; whether it held.
    func until(within timeout: Duration, _ condition: () -> Bool) async -> Bool {
        await changes.until(within: timeout, condition)
    }

    var standardOutput: [String] { output.all.map(\.text) }
    var standardError: [String] { errors.all.map(\.text) }

    /// Sends `signal` and waits up to `timeout` for it to exit; returns its exit status (nil: still running).
    func signal(_ signal: Int32 = SIGTERM, waitingUpTo timeout: Duration = .seconds(5)) async -> Int32? {
        if isRunning { kill(child.pid, signal) }
        return await exitStatus(within: timeout)
    }

    /// Its exit status (the signal's number when a signal ended it) once it exits within `timeout`, nil otherwise.
    func exitStatus(within timeout: Duration) async -> Int32? {
        _ = await changes.until(within: timeout) { !isRunning }
        return ending.termination?.exitStatus
    }

    /// SIGTERM, then SIGKILL after 3 s (a program that has not exited 3 s after SIGTERM on a loaded machine
    /// is not going to): for cleanup whatever happened.
    func stop() async {
        if await signal(SIGTERM, waitingUpTo: .seconds(3)) == nil, isRunning {
            kill(child.pid, SIGKILL)
            _ = await exitStatus(within: .seconds(2))
        }
        try? closeInput()
    }

    /// How it ended, once it has.
    final class Ending: Sendable {
        private let state = Mutex<Termination?>(nil)
        private let changes: Changes
        init(_ changes: Changes) { self.changes = changes }
        var termination: Termination? { state.withLock { $0 } }
        func set(_ how: Termination) {
            state.withLock { $0 = how }
            changes.bump()
        }
    }

    /// A count of changes (lines read, pipes ended, the exit) that waits await, each bounded on the wall clock.
    final class Changes: Sendable {
        private let signal = ChangeSignal()

        func bump() { signal.signal() }

        /// Looks at `condition` now and after each change until it holds (true) or `timeout` passes on the wall
        /// clock (false, after a last look), or the task is cancelled (the last look's answer).
        func until(within timeout: Duration, _ condition: () -> Bool) async -> Bool {
            let deadline = ContinuousClock.now.advanced(by: timeout)
            while true {
                let seen = signal.count
                if condition() { return true }
                guard ContinuousClock.now < deadline, !Task.isCancelled else { return condition() }
                await signal.wait(after: seen, until: deadline, clock: ContinuousClock())
            }
        }
    }

    /// Lines read from one of its pipes.
    final class Lines: Sendable {
        private struct State {
            var lines: [Line] = []
            var taken: Set<Int> = []
            var ended = false
            var pending: [UInt8] = []
        }
        private let state = Mutex(State())
        private let changes: Changes
        init(_ changes: Changes) { self.changes = changes }

        /// Bytes read from the pipe: complete lines are stamped with the time they came.
        func append(_ bytes: [UInt8]) {
            let now = ContinuousClock.now
            defer { changes.bump() }
            state.withLock { state in
                state.pending.append(contentsOf: bytes)
                while let newline = state.pending.firstIndex(of: 0x0A) {
                    let text = String(decoding: state.pending[..<newline], as: UTF8.self)
                    state.pending.removeSubrange(...newline)
                    state.lines.append(Line(text: text, at: now))
                }
            }
        }

        /// The pipe reached end of file.
        func end() {
            state.withLock { $0.ended = true }
            changes.bump()
        }

        var all: [Line] { state.withLock { $0.lines } }
        /// The pipe reached end of file: every line is in.
        var ended: Bool { state.withLock { $0.ended } }

        /// The first line not yet taken that satisfies `predicate`, now taken; nil when there is none yet.
        func take(where predicate: (String) -> Bool) -> Line? {
            state.withLock { state -> Line? in
                for (index, line) in state.lines.enumerated() where !state.taken.contains(index) && predicate(line.text) {
                    state.taken.insert(index)
                    return line
                }
                return nil
            }
        }
    }
}

struct ChildProgramError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs a program to completion (on a Dispatch thread, not the cooperative pool) with a deadline; its
/// exit status (nil when it had to be killed), standard output and standard error. The default 30 s is for
/// a `hil` command that starts a simulated bench, on a loaded 2-core machine; a hang ends there.
func runToCompletion(_ path: String, _ arguments: [String], timeout: Duration = .seconds(30),
                     environment: [String: String]? = nil) async throws -> (status: Int32?, output: String, error: String) {
    let child = try ChildProgram(path, arguments, name: URL(fileURLWithPath: path).lastPathComponent, environment: environment)
    try? child.closeInput()
    let status = await child.exitStatus(within: timeout)
    if status == nil { await child.stop() }
    await child.drain()
    return (status, child.standardOutput.joined(separator: "\n"), child.standardError.joined(separator: "\n"))
}
