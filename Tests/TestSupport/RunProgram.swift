// Test kind: process — runs programs to completion.
import Support
import DeviceControl

/// Runs a program to completion as DeviceControl's `ChildProcess` (posix_spawn, its own process
/// group, a dedicated thread reading its output and reaping it), so no thread of Swift's cooperative
/// pool blocks on it: a blocked pool thread on a 2-core machine stalls every other test's timers.
/// Returns its exit status (the signal's number when a signal ended it, 127 when it could not start)
/// and its standard output; its standard error is read and dropped.
public func runProgram(_ path: String, _ arguments: [String]) async -> (status: Int32, output: String) {
    let ran = await runProgramCapturing(path, arguments)
    return (ran.termination.map { $0.exitStatus } ?? 127, ran.stdout)
}

/// Runs a program to completion like `runProgram`, and returns how it ended (nil when it could not
/// start), its standard output and its standard error.
public func runProgramCapturing(_ path: String, _ arguments: [String]) async -> (termination: Termination?, stdout: String, stderr: String) {
    let child: ChildProcess
    do {
        child = try ChildProcess.spawn([path] + arguments)
    } catch {
        return (nil, "", "\(path): \(error)")
    }
    let output = await child.collect()
    return (output.termination, String(decoding: output.stdout, as: UTF8.self), String(decoding: output.stderr, as: UTF8.self))
}

extension Termination {
    /// The exit code, or the signal's number when a signal ended it.
    public var exitStatus: Int32 {
        switch self {
        case .exited(let code): code
        case .signalled(let signal): signal
        }
    }
}
