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
/// deadline. Timers fire at their deadline on the loop's `clock` to the nanosecond (a timerfd on Linux),
/// in deadline order. On a simulated bench's virtual time (`VirtualTime`) the loop tells the clock when it
/// is idle, and the clock wakes it when one of its deadlines comes due.
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
        let generation: UInt64
        let onReadable: @Sendable () -> Void
        let onWritable: (@Sendable () -> Void)?
        var wantsWritable = false
        var wantsReadable = true
        /// epoll refused the descriptor (a regular file, as stdin may be): it is always ready, as poll(2) says.
        var alwaysReady = false

        var interest: WatchInterest {
            WatchInterest(fd: fd, generation: generation, writable: wantsWritable && onWritable != nil, readable: wantsReadable)
        }
    }

    /// How many jobs and closures run between two looks at the watched descriptor and the timers.
    static let workBudget = 64

    private let state = Mutex(State())
    private let poller: LoopPoller
    private let threadID = Mutex<pthread_t?>(nil)
    private let finished = DispatchSemaphore(value: 0)
    private let label: String
    /// The clock the loop's deadlines are on.
    public let clock: LoopClock
    /// This loop's membership of its virtual time (0 on real time).
    private let memberID: UInt64

    /// Starts the loop's thread, its deadlines on `clock`.
    public init(label: String, clock: LoopClock = .real) throws(EventLoopError) {
        self.label = label
        self.clock = clock
        let poller = try LoopPoller()
        self.poller = poller
        self.memberID = clock.virtual?.join(label: label, wake: { poller.wake() }) ?? 0
        let started = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            threadID.withLock { $0 = pthread_self() }
            started.signal()
            run()
            clock.virtual?.leave(memberID)
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
        let outside = !inLoop
        let wasEmpty = state.withLock { state in
            state.work.append(item)
            // Work from the loop's own thread comes while it runs: it is busy already.
            if outside { clock.virtual?.markBusy(memberID) }
            return state.work.count == 1
        }
        if wasEmpty && outside { poller.wake() }
    }

    /// Now, on the loop's clock.
    public var now: ContinuousClock.Instant { clock.now }

    /// Calls `action` on the loop's thread after `delay` on the loop's clock. Returns the timer's ID.
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        schedule(at: clock.now.advanced(by: delay), action)
    }

    /// Calls `action` on the loop's thread at `deadline` (an instant of the loop's clock) unless cancelled
    /// first. Returns the timer's ID.
    @discardableResult
    public func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        let outside = !inLoop
        let (id, isFirst) = state.withLock { state in
            let id = state.nextTimerID
            state.nextTimerID += 1
            state.timers.insert(TimerHeap.Timer(id: id, deadline: deadline, action: action))
            let isFirst = state.timers.nextDeadline == deadline
            // An idle loop on virtual time must tell the clock its new deadline before time may move on.
            if isFirst && outside { clock.virtual?.markBusy(memberID) }
            return (id, isFirst)
        }
        // Only a new earliest deadline changes how long the loop may sleep.
        if isFirst && !inLoop { poller.wake() }
        return id
    }

    /// Cancels a timer; a timer that already fired is ignored.
    public func cancelTimer(_ id: UInt64) {
        let outside = !inLoop
        let changedEarliest = state.withLock { state -> Bool in
            let earliest = state.timers.nextDeadline
            guard state.timers.remove(id: id) else { return false }
            // An idle loop on virtual time told the clock its earliest deadline: it must look again before
            // time may move on, or the clock would jump to (and report) a deadline nobody waits for.
            let changed = earliest != state.timers.nextDeadline
            if changed && outside { clock.virtual?.markBusy(memberID) }
            return changed
        }
        if changedEarliest && outside && clock.virtual != nil { poller.wake() }
    }

    /// Watches `fd` (one descriptor per loop): `onReadable` runs on the loop's thread whenever it is
    /// readable (or has failed); `onWritable` whenever it is writable while write interest is on
    /// (`setWriteInterest`), which is how a transport flushes what the kernel would not take at once.
    public func watch(fd: Int32, onReadable: @escaping @Sendable () -> Void, onWritable: (@Sendable () -> Void)? = nil) {
        state.withLock { state in
            if let old = state.watched { poller.unregister(old.interest) }
            state.watchGeneration += 1
            var watch = Watch(fd: fd, generation: state.watchGeneration, onReadable: onReadable, onWritable: onWritable)
            watch.alwaysReady = !poller.register(watch.interest)
            state.watched = watch
        }
        if !inLoop { poller.wake() }
    }

    /// Turns the watched descriptor's write interest on (bytes are queued) or off (the queue is empty).
    public func setWriteInterest(_ wanted: Bool) { setInterest(\.wantsWritable, wanted) }

    /// Turns the watched descriptor's read interest off (its input ended, and only what is queued for it
    /// is still to be written) or back on. Without it `onReadable` still runs when the descriptor fails or
    /// its peer hangs up.
    public func setReadInterest(_ wanted: Bool) { setInterest(\.wantsReadable, wanted) }

    /// Sets one interest of the watched descriptor and tells the poller (and a loop waiting in it) when it changed.
    private func setInterest(_ interest: WritableKeyPath<Watch, Bool> & Sendable, _ wanted: Bool) {
        let changed = state.withLock { state -> Bool in
            guard var watch = state.watched, watch[keyPath: interest] != wanted else { return false }
            watch[keyPath: interest] = wanted
            state.watched = watch
            poller.modify(watch.interest)
            return true
        }
        if changed && !inLoop { poller.wake() }
    }

    /// Stops watching the descriptor, at once (so its owner may close it next; it is not closed here).
    public func unwatch() {
        state.withLock { state in
            if let old = state.watched { poller.unregister(old.interest) }
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
            let (watched, timeout, busy, stop) = state.withLock { state -> (Watch?, Duration?, Bool, Bool) in
                let pending = next < batch.count || !state.work.isEmpty
                let busy = pending || state.stopping || state.watched.map { $0.alwaysReady && ($0.wantsReadable || $0.interest.writable) } == true
                let deadline = state.timers.nextDeadline
                guard let virtual = clock.virtual else {
                    return (state.watched, deadline.map { ContinuousClock.now.duration(to: $0) }, busy, state.stopping && !pending)
                }
                if busy { return (state.watched, nil, true, state.stopping && !pending) }
                // Under this loop's lock: work queued from now on marks the loop busy after this report.
                switch virtual.idle(memberID, deadline: deadline) {
                case .fireNow: return (state.watched, nil, true, false)
                case .sleepUntilWoken: return (state.watched, nil, false, false)
                case .sleep(let limit): return (state.watched, limit, false, false)
                }
            }
            if stop { break }
            clock.virtual?.resumeSettled()
            var ready = poller.wait(watching: watched?.interest, timeout: timeout, block: !busy)
            if let watched, watched.alwaysReady {
                ready = Readiness().union(watched.wantsReadable ? .readable : []).union(watched.interest.writable ? .writable : [])
            }
            // A watch replaced or removed while the loop waited hears nothing more.
            if let watched, !ready.isEmpty, state.withLock({ state -> Bool in
                guard state.watched?.generation == watched.generation else { return false }
                // Bytes from outside the clock's loops (a socket's other end) are work the clock did not see
                // coming: the loop is busy until it reports idle again, so virtual time neither jumps nor
                // counts the loop settled while it handles them.
                clock.virtual?.markBusy(memberID)
                return true
            }) {
                if ready.contains(.writable) { watched.onWritable?() }
                if ready.contains(.readable) { watched.onReadable() }
            }
            fireDueTimers()
        }
    }

    private func fireDueTimers() {
        let now = clock.now
        let due = state.withLock { $0.timers.popDue(at: now) }
        for timer in due { timer.action() }
    }
}

/// Failure to set up an event loop.
public struct EventLoopError: Error, CustomStringConvertible, Sendable {
    public let description: String
}
