import Synchronization

/// A value set once by one task and read, or awaited, by any number of others (a child's end, say); unlike
/// `OneShot`, many may wait, and a wait may have a deadline. Built on `ChangeSignal`: setting it is the one
/// change.
package final class Completion<Value: Sendable>: Sendable {
    private let stored = Mutex<Value?>(nil)
    private let changed = ChangeSignal()

    package init() {}

    /// Sets the value (the first one given stays) and wakes every waiter.
    package func set(_ value: Value) {
        let first = stored.withLock { stored -> Bool in
            guard stored == nil else { return false }
            stored = value
            return true
        }
        if first { changed.signal() }
    }

    /// The value, once set.
    package var value: Value? { stored.withLock { $0 } }

    /// Returns once the value is set, or when the waiting task is cancelled.
    package func wait() async {
        await changed.wait(after: 0)
    }

    /// Returns once the value is set, when `deadline` comes on `clock`, or when the task is cancelled,
    /// whichever is first; true when the value is set. The deadline's timer is gone when it returns.
    package func wait<C: Clock<Duration>>(until deadline: C.Instant, clock: C) async -> Bool {
        await changed.wait(after: 0, until: deadline, clock: clock)
        return value != nil
    }
}
