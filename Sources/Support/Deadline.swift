/// Runs `operation` and gives up after `limit`: the operation is cancelled and `timeout()` is thrown, an
/// error that names what was awaited and for how long. Every wait of a power switch goes through here or
/// through a C call with its own timeout; the test traits use it for waits the host has no deadline of its own for.
///
/// The operation is cancelled at the deadline, and the group waits for it to end: an operation that
/// honours cancellation (the host's waits do) ends at once.
package func withDeadline<T: Sendable>(
    _ limit: Duration,
    timeout: @escaping @Sendable () -> any Error,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withDeadline(limit, clock: ContinuousClock(), timeout: timeout, operation)
}

/// `withDeadline` with the limit measured on `clock` (a simulated bench's virtual time, say).
package func withDeadline<T: Sendable, C: Clock>(
    _ limit: Duration,
    clock: C,
    timeout: @escaping @Sendable () -> any Error,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T where C.Duration == Duration {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit, clock: clock)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw timeout() }
        guard let value = first else { throw timeout() }
        return value
    }
}
