/// Runs `operation` and gives up after `limit`: the operation is cancelled and `timeout()` is thrown, an
/// error that names what was awaited and for how long. Every wait in DeviceControl goes through here or
/// through a C call with its own timeout; the test traits use it for waits the host has no deadline of its own for.
public func withDeadline<T: Sendable>(
    _ limit: Duration,
    timeout: @escaping @Sendable () -> any Error,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw timeout() }
        guard let value = first else { throw timeout() }
        return value
    }
}
