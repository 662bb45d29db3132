import Support
import EventLoops

extension EventLoop {
    /// The value `answer` resolves to, or `fallback` once `deadline` passes on this loop's clock or the task
    /// is cancelled (the caller tells which by `Task.isCancelled`). The timer goes either way.
    func value<Value: Sendable>(of answer: OneShot<Value>, until deadline: ContinuousClock.Instant,
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
