import EventLoops
import Synchronization

/// A count of changes that a task can wait for, bounded by a deadline on a clock: bumped from anywhere,
/// awaited without looking again and again.
package final class Changes: Sendable {
    private struct State {
        var version: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 1
    }
    private let state = Mutex(State())

    package init() {}

    package var version: UInt64 { state.withLock { $0.version } }

    package func bump() {
        let waiters = state.withLock { state in
            state.version += 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the version is past `seen`, at `deadline` on `clock`, or when the task is cancelled.
    package func wait(after seen: UInt64, until deadline: ContinuousClock.Instant, on clock: LoopClock) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.next(after: seen) }
            group.addTask { try? await clock.sleep(until: deadline, tolerance: nil) }
            await group.next()
            group.cancelAll()
        }
    }

    private func next(after seen: UInt64) async {
        let id = state.withLock { state -> UInt64 in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waiting = state.withLock { state -> Bool in
                    guard state.version == seen, !Task.isCancelled else { return false }
                    state.waiters[id] = continuation
                    return true
                }
                if !waiting { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
