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
/// between the controller's answer and the code awaiting it. Blocking C calls (epoll, read) happen only
/// here, never on Swift's cooperative pool.
///
/// Work (jobs and closures) runs in the order it was enqueued, at most `workBudget` items between two
/// looks at the descriptor and the timers, so neither a busy queue nor a busy transport can starve a
/// deadline. Timers fire at their `ContinuousClock` deadline to the nanosecond (a timerfd on Linux), in
/// deadline order.
public final class EventLoop: SerialExecutor, TaskExecutor, Sendable {
    private enum Work {
        case job(UnownedJob)
        case closure(@Sendable () -> Void)
    }

    private struct State: ~Copyable {
        var work: [Work] = []
        var timers = TimerHeap()
        var nextTimerID: UInt64 = 1
        var watched: Watch?
        var watchGeneration: UInt64 = 0
        var stopping = false
    }

    private struct Watch {
        let fd: Int32
        let onReadable: @Sendable () -> Void
    }

    /// How many jobs and closures run between two looks at the watched descriptor and the timers.
    static let workBudget = 64

    private let state = Mutex(State())
    private let poller: LoopPoller
    private let threadID = Mutex<pthread_t?>(nil)
    private let finished = DispatchSemaphore(value: 0)
    private let label: String

    /// Starts the loop's thread.
    public init(label: String) throws(EventLoopError) {
        self.label = label
        self.poller = try LoopPoller()
        let started = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            threadID.withLock { $0 = pthread_self() }
            started.signal()
            run()
            finished.signal()
        }
        thread.name = label
        thread.start()
        started.wait()
    }

    /// True when called on the loop's own thread.
    public var inLoop: Bool {
        guard let id = threadID.withLock({ $0 }) else { return false }
        return pthread_equal(id, pthread_self()) != 0
    }

    // MARK: SerialExecutor

    public func enqueue(_ job: consuming ExecutorJob) {
        add(.job(UnownedJob(job)))
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

    /// Runs `body` on the loop's thread soon, after the work already queued.
    public func execute(_ body: @escaping @Sendable () -> Void) {
        add(.closure(body))
    }

    private func add(_ item: Work) {
        let wasEmpty = state.withLock { state in
            state.work.append(item)
            return state.work.count == 1
        }
        if wasEmpty && !inLoop { poller.wake() }
    }

    /// Calls `action` on the loop's thread at `deadline` unless cancelled first. Returns the timer's ID.
    @discardableResult
    public func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        let (id, isFirst) = state.withLock { state in
            let id = state.nextTimerID
            state.nextTimerID += 1
            state.timers.insert(TimerHeap.Timer(id: id, deadline: deadline, action: action))
            return (id, state.timers.nextDeadline == deadline)
        }
        // Only a new earliest deadline changes how long the loop may sleep.
        if isFirst && !inLoop { poller.wake() }
        return id
    }

    /// Cancels a timer; a timer that already fired is ignored.
    public func cancelTimer(_ id: UInt64) {
        state.withLock { state in _ = state.timers.remove(id: id) }
    }

    /// Watches `fd` for readability (one descriptor per loop); `onReadable` runs on the loop's thread.
    public func watch(fd: Int32, onReadable: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.watched = Watch(fd: fd, onReadable: onReadable)
            state.watchGeneration += 1
        }
        if !inLoop { poller.wake() }
    }

    /// Stops watching the descriptor (it is not closed).
    public func unwatch() {
        state.withLock { state in
            state.watched = nil
            state.watchGeneration += 1
        }
        if !inLoop { poller.wake() }
    }

    /// Ends the thread after the work already queued; waits for it unless called on the loop itself.
    public func shutdown() {
        state.withLock { $0.stopping = true }
        if inLoop { return }
        poller.wake()
        finished.wait()
    }

    deinit {
        poller.close()
    }

    private func run() {
        var poller = self.poller
        var batch: [Work] = []
        var next = 0
        while true {
            // Up to the budget of work, oldest first; what is left runs before anything enqueued later.
            var ran = 0
            while ran < Self.workBudget {
                if next == batch.count {
                    batch = state.withLock { state in
                        let taken = state.work
                        state.work.removeAll(keepingCapacity: true)
                        return taken
                    }
                    next = 0
                    if batch.isEmpty { break }
                }
                let item = batch[next]
                next += 1
                ran += 1
                switch item {
                case .job(let job): job.runSynchronously(on: asUnownedSerialExecutor())
                case .closure(let body): body()
                }
            }
            let (watched, generation, deadline, idle, stop) = state.withLock { state in
                (state.watched, state.watchGeneration, state.timers.nextDeadline, state.work.isEmpty, state.stopping)
            }
            let pending = next < batch.count || !idle
            if stop && !pending { break }
            poller.setWatched(watched?.fd, generation: generation)
            let readable = poller.wait(until: deadline, block: !pending && !stop)
            if readable, let watched { watched.onReadable() }
            fireDueTimers()
        }
    }

    private func fireDueTimers() {
        let now = ContinuousClock.now
        let due = state.withLock { $0.timers.popDue(at: now) }
        for timer in due { timer.action() }
    }
}

/// Failure to set up an event loop.
public struct EventLoopError: Error, CustomStringConvertible, Sendable {
    public let description: String
}
