import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One thread that runs a host's jobs, watches its transport's file descriptor and fires its deadlines.
///
/// The host actor uses the loop as its serial executor, so a packet read from the transport is decoded
/// and handed to the host on the same thread that then resumes the waiting caller: no thread hop sits
/// between the controller's answer and the code awaiting it. Blocking C calls (poll, read) happen only
/// here, never on Swift's cooperative pool.
public final class EventLoop: SerialExecutor, TaskExecutor, Sendable {
    private struct State: ~Copyable {
        var jobs: [UnownedJob] = []
        var closures: [@Sendable () -> Void] = []
        var timers: [Timer] = []
        var nextTimerID: UInt64 = 1
        var watched: Watch?
        var stopping = false
    }

    private struct Timer {
        let id: UInt64
        let deadline: ContinuousClock.Instant
        let action: @Sendable () -> Void
    }

    private struct Watch {
        let fd: Int32
        let onReadable: @Sendable () -> Void
    }

    private let state = Mutex(State())
    private let wakeFD: WakeupPipe
    private let threadID = Mutex<pthread_t?>(nil)
    private let finished = DispatchSemaphore(value: 0)
    private let label: String

    /// Starts the loop's thread.
    public init(label: String) throws(EventLoopError) {
        self.label = label
        self.wakeFD = try WakeupPipe()
        let thread = Thread { [self] in
            threadID.withLock { $0 = pthread_self() }
            run()
            finished.signal()
        }
        thread.name = label
        thread.start()
        while threadID.withLock({ $0 == nil }) { usleep(50) }
    }

    /// True when called on the loop's own thread.
    public var inLoop: Bool {
        guard let id = threadID.withLock({ $0 }) else { return false }
        return pthread_equal(id, pthread_self()) != 0
    }

    // MARK: SerialExecutor

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let wasEmpty = state.withLock { state in
            state.jobs.append(unowned)
            return state.jobs.count == 1 && state.closures.isEmpty
        }
        if wasEmpty && !inLoop { wakeFD.wake() }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    public func checkIsolated() {
        precondition(inLoop, "\(label): code isolated to this loop ran on another thread")
    }

    // MARK: Work

    /// Runs `body` on the loop's thread soon.
    public func execute(_ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.closures.append(body) }
        if !inLoop { wakeFD.wake() }
    }

    /// Calls `action` on the loop's thread at `deadline` unless cancelled first. Returns the timer's ID.
    @discardableResult
    public func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        let id = state.withLock { state in
            let id = state.nextTimerID
            state.nextTimerID += 1
            let timer = Timer(id: id, deadline: deadline, action: action)
            let index = state.timers.firstIndex { $0.deadline > deadline } ?? state.timers.endIndex
            state.timers.insert(timer, at: index)
            return id
        }
        if !inLoop { wakeFD.wake() }
        return id
    }

    /// Cancels a timer; a timer that already fired is ignored.
    public func cancelTimer(_ id: UInt64) {
        state.withLock { state in state.timers.removeAll { $0.id == id } }
    }

    /// Watches `fd` for readability (one descriptor per loop); `onReadable` runs on the loop's thread.
    public func watch(fd: Int32, onReadable: @escaping @Sendable () -> Void) {
        state.withLock { $0.watched = Watch(fd: fd, onReadable: onReadable) }
        if !inLoop { wakeFD.wake() }
    }

    /// Stops watching the descriptor (it is not closed).
    public func unwatch() {
        state.withLock { $0.watched = nil }
        if !inLoop { wakeFD.wake() }
    }

    /// Ends the thread after the work already queued; waits for it unless called on the loop itself.
    public func shutdown() {
        state.withLock { $0.stopping = true }
        if inLoop { return }
        wakeFD.wake()
        finished.wait()
    }

    deinit {
        wakeFD.close()
    }

    private func run() {
        var fds = [pollfd(fd: wakeFD.readFD, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: -1, events: Int16(POLLIN), revents: 0)]
        while true {
            runQueuedWork()
            let (timeout, watched, stop) = state.withLock { state -> (Int32, Watch?, Bool) in
                if !state.jobs.isEmpty || !state.closures.isEmpty { return (0, state.watched, state.stopping) }
                guard let first = state.timers.first else { return (-1, state.watched, state.stopping) }
                let remaining = ContinuousClock.now.duration(to: first.deadline)
                let ms = remaining <= .zero ? 0 : Int32(clamping: (remaining.components.seconds * 1000)
                    + (remaining.components.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
                return (ms, state.watched, state.stopping)
            }
            if stop { break }
            fds[1].fd = watched?.fd ?? -1
            fds[0].revents = 0
            fds[1].revents = 0
            let ready = poll(&fds, 2, timeout)
            if ready < 0 && errno != EINTR { break }
            if fds[0].revents != 0 { wakeFD.drain() }
            if let watched, fds[1].revents != 0 { watched.onReadable() }
            fireDueTimers()
        }
        // Run what is left so no continuation is stranded.
        runQueuedWork()
    }

    private func runQueuedWork() {
        while true {
            let (jobs, closures) = state.withLock { state in
                let work = (state.jobs, state.closures)
                state.jobs.removeAll(keepingCapacity: true)
                state.closures.removeAll(keepingCapacity: true)
                return work
            }
            if jobs.isEmpty && closures.isEmpty { return }
            for closure in closures { closure() }
            for job in jobs { job.runSynchronously(on: asUnownedSerialExecutor()) }
        }
    }

    private func fireDueTimers() {
        let now = ContinuousClock.now
        let due = state.withLock { state -> [Timer] in
            let count = state.timers.prefix { $0.deadline <= now }.count
            let due = Array(state.timers.prefix(count))
            state.timers.removeFirst(count)
            return due
        }
        for timer in due { timer.action() }
    }
}

/// Failure to set up an event loop.
public struct EventLoopError: Error, CustomStringConvertible, Sendable {
    public let description: String
}
