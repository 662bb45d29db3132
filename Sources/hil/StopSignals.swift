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
        let (names, sink) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
        self.names = names
        SignalPipe.handle([SIGINT, SIGTERM]) { sink.yield($0 == SIGINT ? "SIGINT" : "SIGTERM") }
    }
}
