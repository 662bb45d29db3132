// Test kind: peer — polls on the wall clock, for peers whose readiness no event announces (a socket file appearing).
/// Polls `condition` every 10 ms until it holds or `timeout` passes; returns whether it held.
public func eventually(within timeout: Duration, _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return await condition()
}
