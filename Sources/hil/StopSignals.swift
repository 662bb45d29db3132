import Foundation

/// SIGINT and SIGTERM as names on a stream, their default action (ending the process) turned off, for
/// servers that stop cleanly when asked (`hil serve`, `hil sim serve`). `cancel()` stops listening.
struct StopSignals {
    /// "SIGINT" or "SIGTERM", once for each signal received.
    let names: AsyncStream<String>
    private let sources: [any DispatchSourceSignal]

    init() {
        let (names, sink) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
        self.names = names
        sources = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")].map { number, name in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { sink.yield(name) }
            source.resume()
            return source
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
