import DeviceControl

/// Runs a program to completion as DeviceControl's `ChildProcess` (posix_spawn, its own process
/// group, a dedicated thread reading its output and reaping it), so no thread of Swift's cooperative
/// pool blocks on it: a blocked pool thread on a 2-core machine stalls every other test's timers.
/// Returns its exit status (the signal's number when a signal ended it, 127 when it could not start)
/// and its standard output; its standard error is read and dropped.
public func runProgram(_ path: String, _ arguments: [String]) async -> (status: Int32, output: String) {
    let child: ChildProcess
    do {
        child = try ChildProcess.spawn([path] + arguments)
    } catch {
        return (127, "\(path): \(error)")
    }
    let output = await child.collect()
    let status: Int32
    switch output.termination {
    case .exited(let code): status = code
    case .signalled(let signal): status = signal
    }
    return (status, String(decoding: output.stdout, as: UTF8.self))
}
