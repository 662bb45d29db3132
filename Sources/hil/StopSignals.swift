import Foundation
import Support

/// SIGINT and SIGTERM as names on a stream, their default action (ending the process) turned off, for
/// servers that stop cleanly when asked (`hil serve`, `hil sim serve`): through `SignalPipe`, so a signal that
/// comes at once after the server said it was ready is not lost. The handler stays for the life of the process:
/// a signal after the stop is ignored.
struct StopSignals {
    /// "SIGINT" or "SIGTERM", once for each signal received.
    let names: AsyncStream<String>

    init() {
        let numbers = SignalPipe.receive([SIGINT, SIGTERM])
        names = AsyncStream { continuation in
            let task = Task {
                for await number in numbers { continuation.yield(number == SIGINT ? "SIGINT" : "SIGTERM") }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
