#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if os(Linux)
import CLinuxCalls
#endif
import Foundation
import Synchronization

/// The write end of the pipe the signal handler writes to; -1 until `SignalPipe.handle` made it.
private let signalPipeWriteEnd = Atomic<Int32>(-1)

/// Signals handed to a callback on a thread of their own, through a pipe (the self-pipe pattern). `handle`
/// installs the signal handler with `sigaction` before it returns, and that handler — async-signal-safe, one
/// `write(2)` — puts the number in a pipe whose buffer keeps it until our thread reads it and calls the callback
/// (never in signal context, never on Swift's cooperative pool, so it may lock, write and `kill(2)` even when the
/// pool is stuck). So a signal is never lost, however soon it comes.
/// A Dispatch signal source is not enough: on Linux it registers on Dispatch's manager thread some time after
/// `resume()`, and a signal that comes before (while the SIG_IGN that turns the default action off is in force)
/// is dropped — `hil serve` told to stop just after its ready line went on serving, 8 times in 200 on a loaded
/// machine. The handler stays for the life of the process; its default action (ending it) is gone. Should the pipe
/// not be made (no descriptor left), no handler is installed and the signals keep their default action.
package enum SignalPipe {
    private struct State {
        var callback: (@Sendable (Int32) -> Void)?
        var installed: Set<Int32> = []
    }
    private static let state = Mutex(State())

    /// Installs the handler for `signals`; from now on `callback` is called with each one received, in order, on
    /// the pipe's thread. One callback at a time: a later call's takes the signals (those of both calls) instead.
    /// SIGPIPE is ignored as well: a reader that goes away must not end a process that handles its signals.
    package static func handle(_ signals: [Int32], with callback: @escaping @Sendable (Int32) -> Void) {
        state.withLock { state in
            state.callback = callback
            signal(SIGPIPE, SIG_IGN)
            guard signalPipeWriteEnd.load(ordering: .acquiring) >= 0 || startReader() else { return }
            for number in signals where !state.installed.contains(number) {
                install(number)
                state.installed.insert(number)
            }
        }
    }

    /// Makes the pipe (close-on-exec, its write end non-blocking so that a handler never waits) and the thread that
    /// reads it; false when the pipe cannot be made.
    private static func startReader() -> Bool {
        var ends: [Int32] = [-1, -1]
        #if os(Linux)
        let made = hil_pipe_cloexec(&ends)
        #else
        let made = pipe(&ends)
        #endif
        guard made == 0 else { return false }
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        signalPipeWriteEnd.store(ends[1], ordering: .releasing)
        let readEnd = ends[0]
        let thread = Thread {
            var number: Int32 = 0
            while true {
                let count = withUnsafeMutableBytes(of: &number) { read(readEnd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count == MemoryLayout<Int32>.size else { return }
                state.withLock { $0.callback }?(number)
            }
        }
        thread.start()
        return true
    }

    /// Writes the signal's number into the pipe: all a signal handler may safely do (errno kept as it was).
    private static let writeToPipe: @convention(c) (Int32) -> Void = { number in
        let saved = errno
        var value = number
        _ = withUnsafeBytes(of: &value) { write(signalPipeWriteEnd.load(ordering: .relaxed), $0.baseAddress, $0.count) }
        errno = saved
    }

    private static func install(_ number: Int32) {
        var action = sigaction()
        #if os(Linux)
        action.__sigaction_handler.sa_handler = writeToPipe
        #else
        action.__sigaction_u.__sa_handler = writeToPipe
        #endif
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        sigaction(number, &action, nil)
    }
}
