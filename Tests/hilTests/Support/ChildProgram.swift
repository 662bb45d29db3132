import Foundation
import Synchronization
import TestSupport

/// A program the test started (the real `hil` binary, a Bumble script), with its standard input as a
/// pipe and each line of its standard output and error stamped with the time it was read. `stop()`
/// signals only this process, by its PID.
final class ChildProgram: Sendable {
    struct Line: Sendable {
        let text: String
        let at: ContinuousClock.Instant
    }

    let name: String
    private let process: Process
    private let input: Pipe
    private let output = Lines()
    private let errors = Lines()


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

    init(_ path: String, _ arguments: [String], name: String) throws {
        self.name = name
        process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = repositoryRoot
        input = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = input
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        output.follow(stdout.fileHandleForReading)
        errors.follow(stderr.fileHandleForReading)
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    /// Writes one line to its standard input.
    func send(_ line: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Closes its standard input (end of file).
    func closeInput() throws { try input.fileHandleForWriting.close() }

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
        if process.isRunning { kill(process.processIdentifier, signal) }
        return await exitStatus(within: timeout)
    }

    /// Its exit status once it exits within `timeout`, nil otherwise.
    func exitStatus(within timeout: Duration) async -> Int32? {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while process.isRunning && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// SIGTERM, then SIGKILL after 3 s: for cleanup whatever happened.
    func stop() async {
        if await signal(SIGTERM, waitingUpTo: .seconds(3)) == nil, process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            _ = await exitStatus(within: .seconds(2))
        }
    }

    /// Lines read from one pipe on a Dispatch thread.
    final class Lines: Sendable {
        private struct State {
            var lines: [Line] = []
            var taken: Set<Int> = []
            var ended = false
        }
        private let state = Mutex(State())

        func follow(_ handle: FileHandle) {
            DispatchQueue.global().async { [self] in
                var pending: [UInt8] = []
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty {
                        state.withLock { $0.ended = true }
                        break
                    }
                    let now = ContinuousClock.now
                    pending.append(contentsOf: chunk)
                    while let newline = pending.firstIndex(of: 0x0A) {
                        let text = String(decoding: pending[..<newline], as: UTF8.self)
                        pending.removeSubrange(...newline)
                        state.withLock { $0.lines.append(Line(text: text, at: now)) }
                    }
                }
            }
        }

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
func runToCompletion(_ path: String, _ arguments: [String], timeout: Duration = .seconds(30)) async throws -> (status: Int32?, output: String, error: String) {
    let child = try ChildProgram(path, arguments, name: URL(fileURLWithPath: path).lastPathComponent)
    try? child.closeInput()
    let status = await child.exitStatus(within: timeout)
    if status == nil { await child.stop() }
    await child.drain()
    return (status, child.standardOutput.joined(separator: "\n"), child.standardError.joined(separator: "\n"))
}
