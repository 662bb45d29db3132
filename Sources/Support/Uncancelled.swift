/// Runs `body` to its end on `loop` even when the calling task is cancelled, and returns what it returned.
///
/// The cleanup after a cancelled wait (disable the scan, cancel the connection attempt, absorb the event
/// that follows) must still reach the controller; run in the cancelled task itself, every command it
/// sends would fail at once with `cancelled`. Its own deadlines still bound it.
package func uncancelled<T: Sendable, E: Error>(on loop: any TaskExecutor, _ body: @escaping @Sendable () async throws(E) -> T) async throws(E) -> T {
    let result = await Task(executorPreference: loop) { () async -> Result<T, E> in
        do throws(E) { return .success(try await body()) } catch { return .failure(error) }
    }.value
    return try result.get()
}
