/// Runs `operation` and gives up after `limit`: the operation is cancelled and `timeout()` is thrown.
/// Every wait in DeviceControl goes through here or through a C call with its own timeout.
func withDeadline<T: Sendable>(
    _ limit: Duration,
    timeout: @escaping @Sendable () -> PowerSwitchError,
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
