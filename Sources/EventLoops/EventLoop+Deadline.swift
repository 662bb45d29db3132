import Support

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

extension EventLoop {
    /// The value `answer` resolves to, or `fallback` once `deadline` passes on this loop's clock or the task
    /// is cancelled (the caller tells which by `Task.isCancelled`). The timer goes either way.
    package func value<Value: Sendable>(of answer: OneShot<Value>, until deadline: ContinuousClock.Instant,
                                        orElse fallback: Value) async -> Value {
        let timer = schedule(at: deadline) { answer.resolve(fallback) }
        let value = await withTaskCancellationHandler {
            await answer.value
        } onCancel: {
            answer.resolve(fallback)
        }
        cancelTimer(timer)
        return value
    }
}
