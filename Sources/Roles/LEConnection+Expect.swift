import HostCore

extension LEConnection {
    /// Runs `start` (a command, a request to the peer) and waits for the host event `match` picks, within
    /// `timeout` on the host's clock. The event is expected before `start` runs, so a fast answer is not missed;
    /// if `start` fails, the expectation goes and its error is thrown.
    func event<Value: Sendable>(_ awaited: String, timeout: Duration, after start: () async throws(RoleError) -> Void,
                                _ match: @escaping @Sendable (HostEvent) -> Value?) async throws(RoleError) -> Value {
        let expectation: Expectation<Value>
        do {
            expectation = try await host.expect(awaited, timeout: timeout, match)
        } catch {
            throw .host(error)
        }
        do {
            try await start()
        } catch {
            await host.discard(expectation)
            throw error
        }
        do {
            return try await host.wait(for: expectation)
        } catch {
            throw .host(error)
        }
    }
}
