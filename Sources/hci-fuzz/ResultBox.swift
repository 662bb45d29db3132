import Synchronization

/// A value handed from a task to the thread that waits for it.
final class ResultBox<T: Sendable>: Sendable {
    private let value = Mutex<T?>(nil)
    func set(_ newValue: T) { value.withLock { $0 = newValue } }
    func get() -> T? { value.withLock { $0 } }
    /// Lets go of the value (a box the value's own closures hold would keep it alive for ever).
    func clear() { value.withLock { $0 = nil } }
}
