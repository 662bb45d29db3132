import Synchronization

/// A value delivered once, possibly before anyone awaits it: the first `resolve` wins, and `value` returns
/// it whether it came before or after the await began. Waits that register here before the action that
/// answers them cannot miss a fast answer, even when the await hops executors.
package final class OneShot<Value: Sendable>: Sendable {
    private enum State {
        case pending(CheckedContinuation<Value, Never>?)
        case resolved(Value)
    }

    private let state = Mutex(State.pending(nil))

    package init() {}

    /// Delivers `value` unless one was delivered already.
    package func resolve(_ value: Value) {
        let continuation = state.withLock { state -> CheckedContinuation<Value, Never>? in
            guard case .pending(let continuation) = state else { return nil }
            state = .resolved(value)
            return continuation
        }
        continuation?.resume(returning: value)
    }

    /// The value, once delivered.
    package var value: Value {
        get async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
                let ready = state.withLock { state -> Value? in
                    switch state {
                    case .resolved(let value): return value
                    case .pending: state = .pending(continuation); return nil
                    }
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}
