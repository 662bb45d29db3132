import Support
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The simulated bench's clock: virtual time shared by the event loops of one simulated world (the air,
/// the hosts on its controllers, the accessories' hosts) and by the code that drives them.
///
/// While a `drive` is under way, time stands still as long as anything computes, and when every member
/// loop is idle (nothing queued, waiting only for a timer) it jumps to the earliest deadline among them and
/// wakes the loops due then: a run takes as long as its computation, not as long as the radio would, and
/// every duration measured on this clock is what it would have been at real time. Outside a drive it flows
/// at the rate of real time from where it stood, so a host used without a drive still sees its deadlines
/// fire.
///
/// A stepped clock (`VirtualTime.stepped()`) never moves by itself, neither in a drive nor outside one: it
/// moves only when its owner calls `advance(by:)` or `advance(to:)`, which fires every member loop's timers
/// due by then, in deadline order, and returns when the loops are idle again. It is the clock a test steps
/// when the code under test talks to something no loop of the clock runs (a thread or a socket's other end),
/// where a jump while that something computes would fire a deadline early.
///
/// Instants are `ContinuousClock.Instant`s (virtual ones begin at the real instant the clock was made), so
/// every API that takes a deadline takes this clock's too; compare them only with instants of the same
/// clock (`LoopClock.now`).
public final class VirtualTime: Sendable {
    /// What an idle member loop should do next.
    enum IdleDecision: Equatable {
        /// A deadline of this loop is due now: fire it without blocking.
        case fireNow
        /// Block until woken (the clock wakes the loop when one of its deadlines comes due).
        case sleepUntilWoken
        /// Time flows (no drive): block at most this long in real time (nil: until woken).
        case sleep(Duration?)
    }

    private struct Member {
        let label: String
        var idle = false
        var deadline: ContinuousClock.Instant?
        let wake: @Sendable () -> Void
    }

    private struct State {
        var members: [UInt64: Member] = [:]
        var nextID: UInt64 = 1
        var drives = 0
        /// Virtual now is `virtualAtMark` during a drive, and `virtualAtMark + (real now − realAtMark)` outside.
        var virtualAtMark: ContinuousClock.Instant
        var realAtMark: ContinuousClock.Instant
        var jumps: UInt64 = 0
        var skipped: Duration = .zero
        /// Stepped: time moves only through `advance(to:)`.
        let stepped: Bool
        /// Stepped: the `settle()` callers waiting for every member loop to be idle again.
        var settling: [CheckedContinuation<Void, Never>] = []
        /// Stepped: the `nextDeadline()` callers waiting for a settled clock with a deadline armed.
        var awaitingDeadline: [CheckedContinuation<ContinuousClock.Instant, Never>] = []
        /// Stepped: callers whose wait is over, resumed by the loop once it holds no lock.
        var ready: [@Sendable () -> Void] = []

        func now(real: ContinuousClock.Instant) -> ContinuousClock.Instant {
            drives > 0 || stepped ? virtualAtMark : virtualAtMark + (real - realAtMark)
        }

        /// Every member is idle and none has a deadline due: nothing more happens until time moves or
        /// work comes from outside.
        var isSettled: Bool {
            members.values.allSatisfy { $0.idle && ($0.deadline.map { $0 > virtualAtMark } ?? true) }
        }

        /// The earliest deadline a member loop waits for.
        var earliestDeadline: ContinuousClock.Instant? {
            members.values.compactMap(\.deadline).min()
        }
    }

    private let state: Mutex<State>
    /// `HIL_VIRTUAL_TIME_TRACE=1` prints every jump on standard error: how far, and whose deadline.
    private static let traceJumps = getenv("HIL_VIRTUAL_TIME_TRACE").map { String(cString: $0) == "1" } ?? false
    /// The loop drives and sleeps run on, and whether this clock started it (and so ends it in `shutdown`).
    private let timerLoopBox = Mutex<(loop: EventLoop?, owned: Bool, ended: Bool)>((nil, false, false))

    /// A clock that jumps while every member loop waits during a drive and flows at the rate of real time
    /// outside one.
    public convenience init() {
        self.init(stepped: false)
    }

    private init(stepped: Bool) {
        let start = ContinuousClock.now
        isStepped = stepped
        state = Mutex(State(virtualAtMark: start, realAtMark: start, stepped: stepped))
    }

    /// A clock that moves only when `advance(by:)` or `advance(to:)` is called: the clock a test steps.
    public static func stepped() -> VirtualTime {
        VirtualTime(stepped: true)
    }

    /// True for a clock made by `stepped()`.
    public let isStepped: Bool

    /// Now, on this clock.
    public var now: ContinuousClock.Instant {
        let real = ContinuousClock.now
        return state.withLock { $0.now(real: real) }
    }

    /// How often time jumped, and by how much in all: what virtual time saved.
    public var jumps: (count: UInt64, skipped: Duration) { state.withLock { ($0.jumps, $0.skipped) } }

    /// The clock as a Swift `Clock`, for `Task.sleep(for:clock:)`, measurements and deadlines.
    public var clock: LoopClock { LoopClock(virtual: self) }

    /// Moves a stepped clock `duration` ahead: see `advance(to:)`.
    public func advance(by duration: Duration) async {
        await advance(to: now.advanced(by: duration))
    }

    /// Moves a stepped clock to `instant` (never back) and returns once every member loop has fired the
    /// timers due by then and is idle again: what those timers did on the loops has been done. Work the
    /// timers handed to threads outside the loops (the global pool, a peer's thread) may still be under way;
    /// await its result. On a clock that is not stepped it does nothing.
    public func advance(to instant: ContinuousClock.Instant) async {
        let wakes = state.withLock { state -> [@Sendable () -> Void]? in
            guard state.stepped else { return nil }
            if instant > state.virtualAtMark {
                state.skipped += state.virtualAtMark.duration(to: instant)
                state.jumps += 1
                state.virtualAtMark = instant
            }
            // Each member looks at its timers anew before it counts as idle again.
            for id in state.members.keys { state.members[id]?.idle = false }
            return state.members.values.map(\.wake)
        }
        guard let wakes else { return }
        for wake in wakes { wake() }
        await settle()
    }

    /// Returns once every member loop of a stepped clock is idle with no deadline due (at once on a clock
    /// that is not stepped, or one with no loops).
    public func settle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let settled = state.withLock { state -> Bool in
                guard state.stepped, !state.isSettled else { return true }
                state.settling.append(continuation)
                return false
            }
            if settled { continuation.resume() }
        }
    }

    /// On a stepped clock: waits until the clock is settled with a deadline armed on one of its loops (a
    /// timer, a sleep, a command's deadline) and returns the earliest. A test awaits it to know that the code
    /// under test has armed its deadline before it advances the clock, and to check which instant it chose.
    /// Waits for ever on a clock nothing will arm a deadline on; on a clock that is not stepped it returns
    /// `now`.
    public func nextDeadline() async -> ContinuousClock.Instant {
        await withCheckedContinuation { (continuation: CheckedContinuation<ContinuousClock.Instant, Never>) in
            let found = state.withLock { state -> ContinuousClock.Instant? in
                guard state.stepped else { return state.now(real: ContinuousClock.now) }
                if state.isSettled, let deadline = state.earliestDeadline { return deadline }
                state.awaitingDeadline.append(continuation)
                return nil
            }
            if let found { continuation.resume(returning: found) }
        }
    }

    /// Runs `body` with time standing still while anything computes and jumping when everything waits. The
    /// body runs on a loop of this clock (its task executor), so its own code counts as computing; a task it
    /// starts unstructured (`Task { }`) runs elsewhere and does not hold time back.
    public func drive<T: Sendable, Failure: Error>(_ body: () async throws(Failure) -> T) async throws(Failure) -> T {
        let loop: EventLoop
        do {
            loop = try timerLoop()
        } catch {
            // No loop thread to be had: run at the rate of real time rather than not at all.
            return try await body()
        }
        // The drive begins and ends on the loop itself. Counted from the calling thread, it would begin before
        // the body reached the loop and end only once the caller's executor (the global pool, say) took the task
        // back: meanwhile every loop is idle, and time would jump from deadline to deadline for nothing — as
        // often as the machine allows, for as long as a busy pool keeps the caller waiting.
        return try await withTaskExecutorPreference(loop) { () async throws(Failure) -> T in
            changeDrives(by: 1)
            defer { changeDrives(by: -1) }
            return try await body()
        }
    }

    /// Suspends until `deadline` on this clock (a timer on the clock's own loop). Throws `CancellationError`
    /// at once when the task is cancelled.
    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        let loop = try timerLoop()
        let sleeper = Sleeper()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard sleeper.begin(continuation) else { return }
                let timer = loop.schedule(at: deadline) { sleeper.finish(nil) }
                // A cancellation between `begin` and here found no timer to cancel: it is cancelled now, or it
                // would stay armed, a deadline nobody waits for that a stepped clock's `nextDeadline` reports.
                if !sleeper.timer(timer) { loop.cancelTimer(timer) }
            }
        } onCancel: {
            if let timer = sleeper.finish(CancellationError()) { loop.cancelTimer(timer) }
        }
    }

    /// One `sleep(until:)`: its continuation, resumed once, by the timer or by cancellation.
    private final class Sleeper: Sendable {
        private let state = Mutex<(continuation: CheckedContinuation<Void, any Error>?, timer: UInt64?, ended: Bool)>((nil, nil, false))

        /// False (and the continuation resumed with CancellationError) when it was cancelled already.
        func begin(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
            let ended = state.withLock { state -> Bool in
                if !state.ended { state.continuation = continuation }
                return state.ended
            }
            if ended { continuation.resume(throwing: CancellationError()) }
            return !ended
        }

        /// Keeps the sleep's timer; false when the sleep has ended already (its timer is then nobody's).
        func timer(_ id: UInt64) -> Bool {
            state.withLock { state in
                state.timer = id
                return !state.ended
            }
        }

        /// Resumes the sleeper (throwing `error` if given) unless it ended already; returns its timer.
        @discardableResult
        func finish(_ error: (any Error)?) -> UInt64? {
            let (continuation, timer) = state.withLock { state in
                defer { state.continuation = nil; state.ended = true }
                return (state.continuation, state.timer)
            }
            if let error { continuation?.resume(throwing: error) } else { continuation?.resume() }
            return timer
        }
    }

    /// Makes `loop` (a loop on this clock) the one drives and sleeps run on, unless one was chosen already:
    /// a world that runs on one loop has its drives there too.
    public func drive(on loop: EventLoop) {
        timerLoopBox.withLock { box in if box.loop == nil && !box.ended { box = (loop, false, false) } }
    }

    /// Ends the loop this clock started for its drives and sleeps, if it started one (a loop given to
    /// `drive(on:)` is its owner's to end). A sleep still pending never ends; call it when the clock's work
    /// is over. A sleep begun afterwards throws at once (no new loop is started for it), and a drive runs its
    /// body at the rate of real time.
    public func shutdown() {
        let owned = timerLoopBox.withLock { box -> EventLoop? in
            defer { box = (nil, false, true) }
            return box.owned ? box.loop : nil
        }
        owned?.shutdown()
    }

    /// The loop drives run on, for tasks of the bench's own (nil when no loop thread could be started).
    var driveExecutor: EventLoop? { try? timerLoop() }

    /// The loop that runs drives and sleeps, started on first use.
    private func timerLoop() throws(EventLoopError) -> EventLoop {
        let ended = EventLoopError(description: "the virtual time's loop was shut down: nothing can wait on this clock any more")
        let (current, isEnded) = timerLoopBox.withLock { ($0.loop, $0.ended) }
        if isEnded { throw ended }
        if let current { return current }
        let made = try EventLoop(label: "virtual-time", clock: LoopClock(virtual: self))
        let existing = timerLoopBox.withLock { box -> Result<EventLoop, EventLoopError>? in
            if box.ended { return .failure(ended) }
            if let existing = box.loop { return .success(existing) }
            box = (made, true, false)
            return nil
        }
        guard let existing else { return made }
        made.shutdown()
        return try existing.get()
    }

    private func changeDrives(by delta: Int) {
        let real = ContinuousClock.now
        let wakes = state.withLock { state -> [@Sendable () -> Void] in
            let now = state.now(real: real)
            state.drives += delta
            state.virtualAtMark = now
            state.realAtMark = real
            // Every member decides anew how to block; until each has looked, none counts as idle.
            for id in state.members.keys { state.members[id]?.idle = false }
            return state.members.values.map(\.wake)
        }
        for wake in wakes { wake() }
    }

    // MARK: Members (event loops)

    /// A loop joins, busy. `wake` makes it leave a blocking wait.
    func join(label: String, wake: @escaping @Sendable () -> Void) -> UInt64 {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.members[id] = Member(label: label, wake: wake)
            return id
        }
    }

    /// A loop's thread has ended; the others may no longer wait for it.
    func leave(_ id: UInt64) {
        let wakes = state.withLock { state -> [@Sendable () -> Void] in
            state.members[id] = nil
            Self.noteIfSettled(&state)
            return advanceIfQuiet(&state, caller: nil).wakes
        }
        for wake in wakes { wake() }
        resumeSettled()
    }

    /// A stepped clock that has just settled: its `settle()` callers, and its `nextDeadline()` callers if
    /// a deadline is armed, become ready to resume.
    private static func noteIfSettled(_ state: inout State) {
        guard state.stepped, state.isSettled else { return }
        for waiter in state.settling { state.ready.append { waiter.resume() } }
        state.settling.removeAll()
        if let deadline = state.earliestDeadline {
            for waiter in state.awaitingDeadline { state.ready.append { waiter.resume(returning: deadline) } }
            state.awaitingDeadline.removeAll()
        }
    }

    /// Resumes the `settle()` callers whose wait is over. A member loop calls it after `idle` once it holds
    /// no lock of its own (a resumed caller may enqueue its continuation on that very loop).
    func resumeSettled() {
        guard isStepped else { return }
        let ready = state.withLock { state -> [@Sendable () -> Void] in
            defer { state.ready.removeAll() }
            return state.ready
        }
        for resume in ready { resume() }
    }

    /// Work was queued for the loop (called under the loop's own lock, before it is woken).
    func markBusy(_ id: UInt64) {
        state.withLock { $0.members[id]?.idle = false }
    }

    /// The loop has nothing queued and waits for `deadline` (nil: for nothing but work). Called under the
    /// loop's own lock, so work queued for it meanwhile marks it busy after this; on a stepped clock the
    /// loop calls `resumeSettled()` next, outside that lock.
    func idle(_ id: UInt64, deadline: ContinuousClock.Instant?) -> IdleDecision {
        let real = ContinuousClock.now
        let (decision, wakes) = state.withLock { state -> (IdleDecision, [@Sendable () -> Void]) in
            guard state.members[id] != nil else { return (.sleep(nil), []) }
            let now = state.now(real: real)
            if state.stepped {
                if let deadline, deadline <= now { return (.fireNow, []) }
                state.members[id]?.idle = true
                state.members[id]?.deadline = deadline
                Self.noteIfSettled(&state)
                return (.sleepUntilWoken, [])
            }
            if state.drives == 0 {
                state.members[id]?.idle = true
                state.members[id]?.deadline = deadline
                return (.sleep(deadline.map { now.duration(to: $0) }), [])
            }
            if let deadline, deadline <= now { return (.fireNow, []) }
            state.members[id]?.idle = true
            state.members[id]?.deadline = deadline
            let advanced = advanceIfQuiet(&state, caller: id)
            return (advanced.callerDue ? .fireNow : .sleepUntilWoken, advanced.wakes)
        }
        for wake in wakes { wake() }
        return decision
    }

    /// During a drive with every member idle: jumps to the earliest deadline and marks the members due
    /// then busy. Returns their wakes (without the caller's) and whether the caller is due.
    private func advanceIfQuiet(_ state: inout State, caller: UInt64?) -> (wakes: [@Sendable () -> Void], callerDue: Bool) {
        guard !state.stepped, state.drives > 0, !state.members.isEmpty, state.members.values.allSatisfy(\.idle) else { return ([], false) }
        guard let next = state.members.values.compactMap(\.deadline).min() else { return ([], false) }
        if next > state.virtualAtMark {
            let jump = state.virtualAtMark.duration(to: next)
            state.skipped += jump
            state.jumps += 1
            state.virtualAtMark = next
            if Self.traceJumps {
                let due = state.members.values.filter { $0.deadline == next }.map(\.label)
                let line = "virtual time: +\(formatDuration(jump)) to \(due.joined(separator: ", "))'s deadline\n"
                _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
            }
        }
        var wakes: [@Sendable () -> Void] = []
        var callerDue = false
        for (id, member) in state.members {
            guard let deadline = member.deadline, deadline <= next else { continue }
            state.members[id]?.idle = false
            if id == caller { callerDue = true } else { wakes.append(member.wake) }
        }
        return (wakes, callerDue)
    }
}
