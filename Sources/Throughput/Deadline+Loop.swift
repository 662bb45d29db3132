import EventLoops

/// Runs `body` as a task on `loop` and returns what it returns, cancelling it once `limit` has passed on the
/// loop's clock (virtual time on a simulated bench) or when the caller is cancelled. `body` ends on
/// cancellation with what it has (an `AsyncStream` iteration ends then): a deadline that keeps partial results,
/// where `withDeadline` throws them away.
package func untilDeadline<T: Sendable>(_ limit: Duration, on loop: EventLoop, _ body: @escaping @Sendable () async -> T) async -> T {
    let work = Task(executorPreference: loop) { await body() }
    let deadline = Task(executorPreference: loop) {
        try? await Task.sleep(for: limit, clock: loop.clock)
        work.cancel()
    }
    let result = await withTaskCancellationHandler { await work.value } onCancel: { work.cancel() }
    deadline.cancel()
    return result
}

/// The first element of `stream` that `accept` takes, or nil when none comes within `limit` on the loop's clock.
package func firstElement<Element: Sendable>(of stream: AsyncStream<Element>, within limit: Duration, on loop: EventLoop,
                                             where accept: @escaping @Sendable (Element) -> Bool = { _ in true }) async -> Element? {
    await untilDeadline(limit, on: loop) {
        for await element in stream where accept(element) { return element }
        return nil
    }
}

extension BenchMeter {
    /// Counts the bench packets of `stream` (`value` gives an element's packet, nil to pass it over) for `window`
    /// from the first SEQUENCE packet, or until the sender's last packet, answered with `acknowledge`; stops
    /// with what it has at `limit` on the loop's clock.
    static func count<Element: Sendable>(_ stream: AsyncStream<Element>, window: Duration, limit: Duration, on loop: EventLoop,
                                         value: @escaping @Sendable (Element) -> [UInt8]?,
                                         acknowledge: @escaping @Sendable (BenchPacket) async -> Void) async -> BenchMeter {
        await untilDeadline(limit, on: loop) {
            var meter = BenchMeter(window: window)
            for await element in stream {
                guard let bytes = value(element) else { continue }
                switch meter.received(bytes, at: loop.now) {
                case .more: continue
                case .windowEnded: return meter
                case .last(let ack):
                    await acknowledge(ack)
                    return meter
                }
            }
            return meter
        }
    }
}
