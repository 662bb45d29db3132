import Synchronization

/// A count of changes that tasks can wait on: `wait(after:)` returns once a change newer than the one the
/// waiter had seen has happened (at once if one has), or when the waiting task is cancelled. The signal
/// carries nothing: the waiter reads what changed itself, having noted `count` before it looked, so no
/// change is lost between its look and its wait.
package final class ChangeSignal: Sendable {
    private struct State {
        package var count: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// How many changes have happened.
    package var count: UInt64 { state.withLock { $0.count } }

    /// A change: every waiter resumes.
    package func signal() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count += 1
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiting { waiter.resume() }
    }

    /// Returns once `count` has passed `seen`, or when the task is cancelled.
    package func wait(after seen: UInt64) async {
        let id = state.withLock { state -> UInt64 in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.count > seen || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Returns once `count` has passed `seen`, when `deadline` comes on `clock`, or when the task is
    /// cancelled, whichever is first. The deadline's timer is gone when it returns.
    package func wait<C: Clock<Duration>>(after seen: UInt64, until deadline: C.Instant, clock: C) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.wait(after: seen) }
            group.addTask { try? await Task.sleep(until: deadline, clock: clock) }
            await group.next()
            group.cancelAll()
        }
    }
}
