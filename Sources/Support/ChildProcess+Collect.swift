#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ChildProcess {
    /// Everything a child wrote, and how it ended.
    package struct Output: Sendable, Equatable {
        package var stdout: [UInt8]
        package var stderr: [UInt8]
        package var termination: Termination
    }

    /// Reads `events` to their end (the child has ended and both of its pipes have closed) and
    /// returns its whole output and its end. Awaits the watcher thread without blocking one of
    /// Swift's; has no deadline of its own (`run(_:deadline:environment:)` adds one). Consumes
    /// `events`: call it once, and not while something else iterates them.
    package func collect() async -> Output {
        var output = Output(stdout: [], stderr: [], termination: .signalled(SIGKILL))
        for await event in events {
            switch event {
            case .stdout(let bytes): output.stdout += bytes
            case .stderr(let bytes): output.stderr += bytes
            case .ended(let termination): output.termination = termination
            }
        }
        return output
    }
}
