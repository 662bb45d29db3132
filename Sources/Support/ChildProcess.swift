#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if os(Linux)
import CLinuxCalls
#endif
import Foundation

/// How a child ended.
public enum Termination: Sendable, Equatable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)

    public var description: String {
        switch self {
        case .exited(let code): return "exit \(code)"
        case .signalled(let signal): return "killed by signal \(signal)"
        }
    }

    package var succeeded: Bool { self == .exited(0) }
}

/// What a child's watcher thread reports, in order: output, then (once) its end.
package enum ChildEvent: Sendable, Equatable {
    case stdout([UInt8])
    case stderr([UInt8])
    case ended(Termination)
}

/// A process started without a shell (posix_spawnp) in a process group of its own, so that stopping it
/// stops what it started. One dedicated thread reads its stdout and stderr (poll(2)) and then reaps it;
/// everything arrives on `events`.
package struct ChildProcess: Sendable {
    package let pid: pid_t
    package let argv: [String]
    package let events: AsyncStream<ChildEvent>
    /// The write end of the child's standard input, when `spawn` was asked for one (else it reads
    /// /dev/null). The caller owns it: closing it is the child's end of input.
    package let input: Int32?

    /// Starts `argv[0]` (looked up in PATH) with `argv`. Throws `ProcessError` `.invalidCommand` for an empty argv
    /// and `.notFound`/`.cannotStart` when it cannot be started. With `standardInput` the child reads a pipe
    /// whose write end is `input`.
    package static func spawn(_ argv: [String], environment: [String: String]? = nil, standardInput: Bool = false) throws -> ChildProcess {
        guard let program = argv.first, !program.isEmpty else {
            throw ProcessError(.invalidCommand, "an empty command line cannot be run")
        }
        var inPipe: [Int32] = [-1, -1]
        if standardInput, closeOnExecPipe(&inPipe) != 0 {
            throw ProcessError(.cannotStart, "cannot create pipes for `\(program)`: \(String(cString: strerror(errno)))")
        }
        func closeInput() { for fd in inPipe where fd >= 0 { close(fd) } }
        var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        // Close-on-exec from the start: a child another thread starts meanwhile must not inherit them (it
        // would hold this child's output open past its end).
        guard closeOnExecPipe(&outPipe) == 0 else {
            closeInput()
            throw ProcessError(.cannotStart, "cannot create pipes for `\(program)`: \(String(cString: strerror(errno)))")
        }
        guard closeOnExecPipe(&errPipe) == 0 else {
            let code = errno
            close(outPipe[0])
            close(outPipe[1])
            closeInput()
            throw ProcessError(.cannotStart, "cannot create pipes for `\(program)`: \(String(cString: strerror(code)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if standardInput {
            posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for arg in cArgs { free(arg) } }
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment ?? [:]) { _, new in new }
        let cEnv: [UnsafeMutablePointer<CChar>?] = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for entry in cEnv { free(entry) } }
        var pid: pid_t = 0
        var code: Int32 = 0
        // ETXTBSY: a script written a moment ago is still open for writing in a child another thread is forking
        // (its descriptor is inherited until that child execs); a few retries 10 ms apart outlast that, as Go's
        // os/exec does. Seen starting a test's just-written fake `swift`.
        for attempt in 0..<5 {
            if attempt > 0 { usleep(10_000) }
            code = cArgs.withUnsafeBufferPointer { args -> Int32 in
                cEnv.withUnsafeBufferPointer { env -> Int32 in
                    guard let argsBase = args.baseAddress, let envBase = env.baseAddress else { return EINVAL }
                    return posix_spawnp(&pid, program, &actions, &attributes, argsBase, envBase)
                }
            }
            if code != ETXTBSY { break }
        }
        close(outPipe[1])
        close(errPipe[1])
        if standardInput { close(inPipe[0]) }
        guard code == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            if standardInput { close(inPipe[1]) }
            let kind: ProcessError.Kind = code == ENOENT || code == EACCES ? .notFound : .cannotStart
            throw ProcessError(kind, "cannot start `\(argv.joined(separator: " "))`: \(String(cString: strerror(code)))")
        }
        // Unbounded: every chunk the child wrote reaches the consumer however far behind it is (its task may
        // wait seconds for a cooperative thread). Keeping the newest 4096 lost the start of a child that
        // writes line by line (Python with PYTHONUNBUFFERED: 484 of 3,189 lines gone).
        let (stream, continuation) = AsyncStream<ChildEvent>.makeStream(bufferingPolicy: .unbounded)
        let readers = (outPipe[0], errPipe[0])
        let child = pid
        let thread = Thread {
            watch(pid: child, stdout: readers.0, stderr: readers.1, continuation: continuation)
        }
        thread.name = "DeviceControl.child.\(pid)"
        thread.start()
        return ChildProcess(pid: pid, argv: argv, events: stream, input: standardInput ? inPipe[1] : nil)
    }

    private static func closeOnExecPipe(_ fds: inout [Int32]) -> Int32 {
        #if os(Linux)
        return fds.withUnsafeMutableBufferPointer { hil_pipe_cloexec($0.baseAddress) }
        #else
        guard pipe(&fds) == 0 else { return -1 }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return 0
        #endif
    }

    /// Sends `signal` to the child's whole process group.
    package func signalGroup(_ signal: Int32) { _ = kill(-pid, signal) }

    /// The watcher thread's body: read both pipes to EOF, then reap.
    private static func watch(pid: pid_t, stdout: Int32, stderr: Int32, continuation: AsyncStream<ChildEvent>.Continuation) {
        var fds = [pollfd(fd: stdout, events: Int16(POLLIN), revents: 0), pollfd(fd: stderr, events: Int16(POLLIN), revents: 0)]
        var open = 2
        var buffer = [UInt8](repeating: 0, count: 4096)
        while open > 0 {
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 { if errno == EINTR { continue } else { break } }
            for index in fds.indices where fds[index].fd >= 0 && fds[index].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(fds[index].fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    let bytes = Array(buffer.prefix(count))
                    continuation.yield(index == 0 ? .stdout(bytes) : .stderr(bytes))
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(fds[index].fd)
                    fds[index].fd = -1
                    open -= 1
                }
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let termination: Termination = (status & 0x7F) == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
        continuation.yield(.ended(termination))
        continuation.finish()
    }
}

/// The output and end of a command run to completion.
package struct CommandResult: Sendable, Equatable {
    package var argv: [String]
    package var stdout: String
    package var stderr: String
    package var termination: Termination
    package var elapsed: Duration
    /// True when it was killed for running past its deadline.
    package var timedOut: Bool

    /// The last non-empty line of stderr, else of stdout: what a one-line message quotes.
    package var lastLine: String {
        for text in [stderr, stdout] {
            if let line = text.split(whereSeparator: \.isNewline).last(where: { !$0.allSatisfy(\.isWhitespace) }) {
                return String(line.prefix(200))
            }
        }
        return ""
    }

    package var commandLine: String { argv.joined(separator: " ") }
}

extension ChildProcess {
    /// Runs `argv` to completion, killing its process group at `deadline`, or at once when the calling task is
    /// cancelled (then the group gets SIGKILL and it throws `CancellationError` without waiting: the watcher
    /// thread reaps the child, so nothing it started is left running).
    package static func run(_ argv: [String], deadline: Duration, environment: [String: String]? = nil) async throws -> CommandResult {
        try await run(argv, deadline: deadline, clock: ContinuousClock(), environment: environment)
    }

    /// `run(_:deadline:environment:)` with the deadline kept on `clock` (real time in production; a test's
    /// stepped clock, which moves only when the test advances it): at `deadline` after the call on `clock` the
    /// child's group gets SIGTERM, half a second later SIGKILL, and 3 s after the deadline a child whose output
    /// is still held open (by something that left its group) is a `.timeout` error. The result's `elapsed` is
    /// measured on `clock` too.
    package static func run<C: Clock<Duration>>(_ argv: [String], deadline: Duration, clock: C,
                                               environment: [String: String]? = nil) async throws -> CommandResult {
        let start = clock.now
        let due = start.advanced(by: deadline)
        let child = try spawn(argv, environment: environment)
        let ending = OneShot<RunEnding>()
        // Collected by a task of its own, which the caller's cancellation does not cut short: its output ends
        // with the child. (Collected in the caller's task, a cancellation ended the loop early with a made-up
        // "killed by signal 9" and left the child running: a cancelled `labgrid-client acquire` went on to
        // take the place.)
        Task { ending.resolve(.collected(await child.collect())) }
        // Whether it fired is what makes the result a timeout. The elapsed time, taken when the caller
        // resumes, also counts its wait for a cooperative thread: a command that exited 4 at 5 ms was called
        // "did not finish within 10 s" on a loaded machine. Late itself, the killer fires only on a child not
        // yet reaped (the watcher thread reaps it when it ends, on a thread of its own). One chain of timers
        // on `clock`, the first at the deadline: the only one a test stepping the clock sees armed.
        let killer = Task { () -> Bool in
            guard (try? await Task.sleep(until: due, clock: clock)) != nil, !Task.isCancelled, kill(child.pid, 0) == 0 else { return false }
            child.signalGroup(SIGTERM)
            guard (try? await Task.sleep(until: due.advanced(by: .milliseconds(500)), clock: clock)) != nil else { return true }
            child.signalGroup(SIGKILL)
            guard (try? await Task.sleep(until: due.advanced(by: .seconds(3)), clock: clock)) != nil else { return true }
            ending.resolve(.outputStayedOpen)
            return true
        }
        let ended = await withTaskCancellationHandler {
            await ending.value
        } onCancel: {
            child.signalGroup(SIGKILL)
            ending.resolve(.cancelled)  // its group has had SIGKILL; the watcher thread reaps it
        }
        let elapsed = start.duration(to: clock.now)
        // The killer ends before `run` does, whichever way it ends: nothing of it waits on `clock` afterwards.
        killer.cancel()
        let killed = await killer.value
        if Task.isCancelled { throw CancellationError() }
        let collected: Output
        switch ended {
        case .cancelled:
            throw CancellationError()
        case .outputStayedOpen:
            throw ProcessError(.outputStayedOpen, "`\(argv.joined(separator: " "))` did not finish within \(deadline.seconds) and its output stayed open after it was killed")
        case .collected(let output):
            collected = output
        }
        return CommandResult(argv: argv, stdout: String(decoding: collected.stdout, as: UTF8.self),
                             stderr: String(decoding: collected.stderr, as: UTF8.self), termination: collected.termination,
                             elapsed: elapsed, timedOut: killed && !collected.termination.succeeded)
    }

    /// How `run` stopped waiting: the child's whole output, the caller's cancellation, or a killed child whose
    /// output stayed open.
    private enum RunEnding: Sendable {
        case collected(Output)
        case cancelled
        case outputStayedOpen
    }
}
