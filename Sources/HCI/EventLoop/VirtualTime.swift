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

        func now(real: ContinuousClock.Instant) -> ContinuousClock.Instant {
            drives > 0 ? virtualAtMark : virtualAtMark + (real - realAtMark)
        }
    }

    private let state: Mutex<State>
    /// `HIL_VIRTUAL_TIME_TRACE=1` prints every jump on standard error: how far, and whose deadline.
    private static let traceJumps = getenv("HIL_VIRTUAL_TIME_TRACE").map { String(cString: $0) == "1" } ?? false
    private let timerLoopBox = Mutex<EventLoop?>(nil)

    public init() {
        let start = ContinuousClock.now
        state = Mutex(State(virtualAtMark: start, realAtMark: start))
    }

    /// Now, on this clock.
    public var now: ContinuousClock.Instant {
        let real = ContinuousClock.now
        return state.withLock { $0.now(real: real) }
    }

    /// How often time jumped, and by how much in all: what virtual time saved.
    public var jumps: (count: UInt64, skipped: Duration) { state.withLock { ($0.jumps, $0.skipped) } }

    /// The clock as a Swift `Clock`, for `Task.sleep(for:clock:)`, measurements and deadlines.
    public var clock: LoopClock { LoopClock(virtual: self) }

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
        changeDrives(by: 1)
        defer { changeDrives(by: -1) }
        return try await withTaskExecutorPreference(loop, operation: body)
    }

    /// Suspends until `deadline` on this clock (a timer on the clock's own loop). Throws `CancellationError`
    /// at once when the task is cancelled.
    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        let loop = try timerLoop()
        let sleeper = Sleeper()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard sleeper.begin(continuation) else { return }
                sleeper.timer(loop.schedule(at: deadline) { sleeper.finish(nil) })
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

        func timer(_ id: UInt64) { state.withLock { $0.timer = id } }

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
        timerLoopBox.withLock { box in if box == nil { box = loop } }
    }

    /// The loop drives run on, for tasks of the bench's own (nil when no loop thread could be started).
    var driveExecutor: EventLoop? { try? timerLoop() }

    /// The loop that runs drives and sleeps, started on first use.
    private func timerLoop() throws(EventLoopError) -> EventLoop {
        if let loop = timerLoopBox.withLock({ $0 }) { return loop }
        let made = try EventLoop(label: "virtual-time", clock: LoopClock(virtual: self))
        return timerLoopBox.withLock { box in
            if let existing = box { made.shutdown(); return existing }
            box = made
            return made
        }
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
            return advanceIfQuiet(&state, caller: nil).wakes
        }
        for wake in wakes { wake() }
    }

    /// Work was queued for the loop (called under the loop's own lock, before it is woken).
    func markBusy(_ id: UInt64) {
        state.withLock { $0.members[id]?.idle = false }
    }

    /// The loop has nothing queued and waits for `deadline` (nil: for nothing but work). Called under the
    /// loop's own lock, so work queued for it meanwhile marks it busy after this.
    func idle(_ id: UInt64, deadline: ContinuousClock.Instant?) -> IdleDecision {
        let real = ContinuousClock.now
        let (decision, wakes) = state.withLock { state -> (IdleDecision, [@Sendable () -> Void]) in
            guard state.members[id] != nil else { return (.sleep(nil), []) }
            let now = state.now(real: real)
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
        guard state.drives > 0, !state.members.isEmpty, state.members.values.allSatisfy(\.idle) else { return ([], false) }
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
