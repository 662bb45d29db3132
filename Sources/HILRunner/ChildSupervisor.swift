#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DeviceControl
import Foundation

/// A child program (`swift build`, `swift test`, a test bundle) run to its end under a deadline, its output
/// appended to the run's log and its last lines kept; at the deadline or on cancellation it is stopped with
/// everything it started.
enum ChildSupervisor {
    enum End: Sendable {
        case exited(Termination)
        case timedOut
        case cancelled
        case couldNotStart(String)
    }

    struct Supervised: Sendable {
        var end: End
        var pid: pid_t
        var tail: OutputTail
    }

    /// Runs `argv` to its end, its output appended to `log`, calling `tick` every `pollInterval` with the
    /// seconds elapsed. At the deadline or on cancellation it stops the child and everything it started
    /// (SIGINT, so that `swift test` stops its test process; then SIGKILL to what is left), waiting at most
    /// 10 s for that.
    static func supervise(_ argv: [String], environment: [String: String], log: URL, deadline: ContinuousClock.Instant,
                          pollInterval: Duration, tick: (Double) -> Void) async -> Supervised {
        let tail = OutputTail()
        let child: ChildProcess
        do { child = try ChildProcess.spawn(argv, environment: environment) } catch {
            return Supervised(end: .couldNotStart("\(error)"), pid: 0, tail: tail)
        }
        let ended = Completion<Termination>()
        let logPath = log.path
        let header = Data("$ \(argv.joined(separator: " "))\n".utf8)
        let pump = Task {
            let fd = open(logPath, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            func append(_ bytes: some DataProtocol) {
                guard fd >= 0 else { return }
                let data = Data(bytes)
                _ = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            }
            append(header)
            for await event in child.events {
                switch event {
                case .stdout(let bytes), .stderr(let bytes):
                    append(bytes)
                    tail.append(bytes)
                case .ended(let termination):
                    append(Data("[\(termination)]\n".utf8))
                    ended.set(termination)
                }
            }
            if fd >= 0 { close(fd) }
        }
        let clock = ContinuousClock()
        let start = clock.now
        var reason: End?
        while ended.value == nil {
            tick((clock.now - start) / .seconds(1))
            if Task.isCancelled { reason = .cancelled; break }
            if clock.now >= deadline { reason = .timedOut; break }
            try? await Task.sleep(for: pollInterval)
        }
        if let reason {
            await stop(child, ended: ended)
            pump.cancel()
            return Supervised(end: reason, pid: child.pid, tail: tail)
        }
        await pump.value
        return Supervised(end: .exited(ended.value ?? .signalled(SIGKILL)), pid: child.pid, tail: tail)
    }

    /// SIGINT to the child (SwiftPM then stops its test process), up to 5 s; then SIGKILL to the child's
    /// group and to every descendant seen before, up to 5 s more. Never touches other processes.
    static func stop(_ child: ChildProcess, ended: Completion<Termination>) async {
        let tree = ProcessTree.descendants(of: child.pid)
        _ = kill(child.pid, SIGINT)
        if await waitUntil(seconds: 5, { ended.value != nil }) == false {
            child.signalGroup(SIGKILL)
            ProcessTree.signal(tree + ProcessTree.descendants(of: child.pid), SIGKILL)
            _ = await waitUntil(seconds: 5) { ended.value != nil }
        }
        // The test process sits in a process group of its own: make sure it went too.
        if tree.contains(where: ProcessTree.isAlive) {
            ProcessTree.signal(tree, SIGTERM)
            if await waitUntil(seconds: 1, { !tree.contains(where: ProcessTree.isAlive) }) == false {
                ProcessTree.signal(tree, SIGKILL)
            }
        }
    }

    /// Polls `condition` every 50 ms for at most `seconds`; true when it held.
    static func waitUntil(seconds: Double, _ condition: () -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let end = clock.now + .milliseconds(Int64(seconds * 1000))
        while clock.now < end {
            if condition() { return true }
            await pause(.milliseconds(50))
        }
        return condition()
    }

    /// Sleeps even in a cancelled task (stopping a child after an interrupt still needs its grace period).
    static func pause(_ duration: Duration) async {
        await Task.detached { try? await Task.sleep(for: duration) }.value
    }
}
