#if canImport(Glibc)
import Support
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

        /// Stopped because its task was cancelled (an interrupt).
        var wasCancelled: Bool {
            if case .cancelled = self { return true }
            return false
        }
    }

    struct Supervised: Sendable {
        var end: End
        var pid: pid_t
        var tail: OutputTail
    }

    /// Runs `argv` to its end, its output appended to `log`, calling `tick` with the seconds elapsed at the
    /// start and every `pollInterval` after, on `clock` (real time in production; a test's stepped clock). At
    /// `deadline` (an instant of `clock`; checked at a tick, and the last tick comes exactly at it) or on
    /// cancellation it stops the child and everything it started (SIGINT, so that `swift test` stops its test
    /// process; then SIGKILL to what is left), waiting at most 10 s for that. The child's end ends the wait for
    /// the next tick at once. While it runs the child is in `children`, for a stop that cannot wait.
    static func supervise<C: Clock<Duration>>(_ argv: [String], environment: [String: String], log: URL, deadline: C.Instant, clock: C,
                                              pollInterval: Duration, children: RunningChildren? = nil,
                                              tick: (Double) -> Void) async -> Supervised {
        let tail = OutputTail()
        let child: ChildProcess
        do { child = try ChildProcess.spawn(argv, environment: environment) } catch {
            return Supervised(end: .couldNotStart("\(error)"), pid: 0, tail: tail)
        }
        children?.add(child.pid)
        defer { children?.remove(child.pid) }
        let ended = Completion<Termination>()
        let logPath = log.path
        let header = Data("$ \(argv.joined(separator: " "))\n".utf8)
        let pump = Task {
            let fd = open(logPath, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)  // as private as the results (AtomicFile.mode)
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
        let start = clock.now
        var reason: End?
        while ended.value == nil {
            tick(start.duration(to: clock.now) / .seconds(1))
            if Task.isCancelled { reason = .cancelled; break }
            if clock.now >= deadline { reason = .timedOut; break }
            _ = await ended.wait(until: min(clock.now.advanced(by: pollInterval), deadline), clock: clock)
        }
        if let reason {
            await stop(child, ended: ended, clock: clock, children: children)
            pump.cancel()
            return Supervised(end: reason, pid: child.pid, tail: tail)
        }
        await pump.value
        return Supervised(end: .exited(ended.value ?? .signalled(SIGKILL)), pid: child.pid, tail: tail)
    }

    /// SIGINT to the child (SwiftPM then stops its test process), up to 5 s; then SIGKILL to the child's
    /// group and to every descendant seen before, up to 5 s more. Never touches other processes. Its waits
    /// are on `clock` and hold in a cancelled task (stopping a child after an interrupt still needs its grace
    /// period); the child's end ends them at once. The descendants it saw go into `children`.
    static func stop<C: Clock<Duration>>(_ child: ChildProcess, ended: Completion<Termination>, clock: C,
                                         children: RunningChildren? = nil) async {
        let tree = ProcessTree.descendants(of: child.pid)
        children?.note(tree, of: child.pid)
        _ = kill(child.pid, SIGINT)
        if await waitForEnd(ended, seconds: 5, clock: clock) == false {
            child.signalGroup(SIGKILL)
            ProcessTree.signal(tree + ProcessTree.descendants(of: child.pid), SIGKILL)
            _ = await waitForEnd(ended, seconds: 5, clock: clock)
        }
        // The test process sits in a process group of its own: make sure it went too.
        if tree.contains(where: ProcessTree.isAlive) {
            ProcessTree.signal(tree, SIGTERM)
            if await waitUntil(seconds: 1, clock: clock, { !tree.contains(where: ProcessTree.isAlive) }) == false {
                ProcessTree.signal(tree, SIGKILL)
            }
        }
    }

    /// Waits for the child's end for at most `seconds` on `clock`, in a task of its own (which the caller's
    /// cancellation does not cut short); true when it ended.
    static func waitForEnd<C: Clock<Duration>>(_ ended: Completion<Termination>, seconds: Double, clock: C) async -> Bool {
        let due = clock.now.advanced(by: .milliseconds(Int64(seconds * 1000)))
        return await Task.detached { await ended.wait(until: due, clock: clock) }.value
    }

    /// Polls `condition` (processes that are not our children, whose ends nothing announces) every 50 ms on
    /// `clock` for at most `seconds`; true when it held.
    static func waitUntil<C: Clock<Duration>>(seconds: Double, clock: C, _ condition: () -> Bool) async -> Bool {
        let end = clock.now.advanced(by: .milliseconds(Int64(seconds * 1000)))
        while clock.now < end {
            if condition() { return true }
            await pause(until: min(clock.now.advanced(by: .milliseconds(50)), end), clock: clock)
        }
        return condition()
    }

    /// Sleeps until `instant` on `clock` even in a cancelled task.
    static func pause<C: Clock<Duration>>(until instant: C.Instant, clock: C) async {
        await Task.detached { try? await Task.sleep(until: instant, clock: clock) }.value
    }
}
