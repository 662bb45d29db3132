#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// Under `hil run`, the test process drives the bench on the runner's rig lock (or labgrid place) and takes
/// none of its own. So that no kill leaves a bench driven without its lock, the test process ends itself
/// when the runner (`HIL_RUNNER_PID`) or its own parent (`swift test`) is gone: a watchdog thread looks
/// every 100 ms and exits the process (status 3) with a line on stderr saying why.
enum RunnerWatchdog {
    /// Starts the watchdog once; does nothing outside `hil run` (no `HIL_RUNNER_PID`).
    static func start(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let text = environment["HIL_RUNNER_PID"], let runner = pid_t(text), runner > 1 else { return }
        started.withLock { started in
            guard !started else { return }
            started = true
            let parent = getppid()
            let thread = Thread {
                while true {
                    if let gone = Self.missing(runner: runner, parent: parent) {
                        let line = "hil: \(gone); ending the tests so nothing drives the bench without its lock\n"
                        _ = line.withCString { write(2, $0, strlen($0)) }
                        _exit(3)
                    }
                    usleep(100_000)
                }
            }
            thread.name = "hil-runner-watchdog"
            thread.start()
        }
    }

    /// What is gone, or nil while both live: the runner (no such process) or our parent (we were re-parented).
    static func missing(runner: pid_t, parent: pid_t) -> String? {
        if kill(runner, 0) != 0 && errno == ESRCH { return "the runner (hil run, PID \(runner)) is gone" }
        if getppid() != parent { return "the process that started the tests (PID \(parent)) is gone" }
        return nil
    }

    private static let started = Mutex(false)
}
