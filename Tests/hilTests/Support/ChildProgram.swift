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
final class ChildProgram: Sendable {
    struct Line: Sendable {
        let text: String
        let at: ContinuousClock.Instant
    }

    let name: String
    private let child: ChildProcess
    private let output = Lines()
    private let errors = Lines()
    private let ending = Ending()
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

    /// The next line of standard output not yet taken that satisfies `predicate`, or nil after `timeout`.
    func line(within timeout: Duration, where predicate: @Sendable (String) -> Bool = { _ in true }) async -> Line? {
        await output.next(within: timeout, where: predicate)
    }

    /// Waits up to `timeout` for both pipes to reach end of file (after the process exited).
    func drain(within timeout: Duration = .seconds(2)) async {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while !(output.ended && errors.ended) && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
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
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while isRunning && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        return ending.termination?.exitStatus
    }

    /// SIGTERM, then SIGKILL after 3 s: for cleanup whatever happened.
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
        var termination: Termination? { state.withLock { $0 } }
        func set(_ how: Termination) { state.withLock { $0 = how } }
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

        /// Bytes read from the pipe: complete lines are stamped with the time they came.
        func append(_ bytes: [UInt8]) {
            let now = ContinuousClock.now
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
        func end() { state.withLock { $0.ended = true } }

        var all: [Line] { state.withLock { $0.lines } }
        /// The pipe reached end of file: every line is in.
        var ended: Bool { state.withLock { $0.ended } }

        func next(within timeout: Duration, where predicate: @Sendable (String) -> Bool) async -> Line? {
            let deadline = ContinuousClock.now.advanced(by: timeout)
            while true {
                let found = state.withLock { state -> Line? in
                    for (index, line) in state.lines.enumerated() where !state.taken.contains(index) && predicate(line.text) {
                        state.taken.insert(index)
                        return line
                    }
                    return nil
                }
                if let found { return found }
                if ContinuousClock.now >= deadline || Task.isCancelled { return nil }
                try? await Task.sleep(for: .milliseconds(2))
            }
        }
    }
}

struct ChildProgramError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs a program to completion (on a Dispatch thread, not the cooperative pool) with a deadline; its
/// exit status (nil when it had to be killed), standard output and standard error.
func runToCompletion(_ path: String, _ arguments: [String], timeout: Duration = .seconds(30),
                     environment: [String: String]? = nil) async throws -> (status: Int32?, output: String, error: String) {
    let child = try ChildProgram(path, arguments, name: URL(fileURLWithPath: path).lastPathComponent, environment: environment)
    try? child.closeInput()
    let status = await child.exitStatus(within: timeout)
    if status == nil { await child.stop() }
    await child.drain()
    return (status, child.standardOutput.joined(separator: "\n"), child.standardError.joined(separator: "\n"))
}
