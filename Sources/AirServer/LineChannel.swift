import Foundation
import HCI
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A line-protocol session over file descriptors: standard input/output, or one client of the control
/// socket. Each line read is answered, in order, with the one line `answer` returns; end of input ends
/// the session (it never stops the server by itself). Lines longer than `maximumLineLength` end it with
/// an `error:` line.
final class LineChannel: Sendable {
    static let maximumLineLength = 4096
    /// How long one answer may take to be written before the client is dropped.
    static let writeDeadline = Duration.seconds(2)

    let name: String
    private let input: Int32
    private let output: Int32
    private let ownsDescriptors: Bool
    private let loop: EventLoop
    private let lines: AsyncStream<String>
    private let sink: AsyncStream<String>.Continuation
    private struct State {
        var buffer: [UInt8] = []
        var ended = false
    }
    private let state = Mutex(State())

    /// A channel reading `input` and writing `output`; with `ownsDescriptors` both are one socket that
    /// is closed at the end. Its loop joins `clock` (a served air's).
    init(name: String, input: Int32, output: Int32, ownsDescriptors: Bool, clock: LoopClock = .real) throws(SimServeError) {
        do {
            loop = try EventLoop(label: "sim-serve-lines", clock: clock)
        } catch {
            throw SimServeError("\(name): cannot start its event loop: \(error)")
        }
        self.name = name
        self.input = input
        self.output = output
        self.ownsDescriptors = ownsDescriptors
        (lines, sink) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
    }

    /// Reads and answers lines until end of input (or `stop()`); returns then.
    func serve(answer: @escaping @Sendable (String) async -> String) async {
        if ownsDescriptors { POSIX.setNonBlocking(input) }
        loop.watch(fd: input) { [self] in readAvailable() }
        for await line in lines {
            let reply = await answer(line)
            guard SocketOptions.writeAll(output, Array((reply + "\n").utf8), deadline: .now + Self.writeDeadline) else { break }
        }
        stop()
        loop.shutdown()
        if ownsDescriptors { _ = SocketOptions.closeDescriptor(input) }
    }

    /// Ends the session: no more lines are read; the line being answered still gets its answer.
    func stop() {
        let first = state.withLock { state in
            defer { state.ended = true }
            return !state.ended
        }
        guard first else { return }
        loop.unwatch()
        sink.finish()
    }

    private func readAvailable() {
        var chunk = [UInt8](repeating: 0, count: 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return }
            guard count > 0 else { return stop() } // end of input, or the peer is gone
            let (complete, overflow) = state.withLock { state -> ([String], Bool) in
                state.buffer.append(contentsOf: chunk[0..<count])
                var complete: [String] = []
                while let newline = state.buffer.firstIndex(of: 0x0A) {
                    var line = Array(state.buffer[..<newline])
                    if line.last == 0x0D { line.removeLast() }
                    complete.append(String(decoding: line, as: UTF8.self))
                    state.buffer.removeSubrange(...newline)
                }
                return (complete, state.buffer.count > Self.maximumLineLength)
            }
            for line in complete { sink.yield(line) }
            if overflow {
                sink.yield(Self.overflowMarker)
                return stop()
            }
            // A blocking descriptor (standard input) is read once per wake-up, so the loop never blocks in read.
            if !ownsDescriptors { return }
        }
    }

    /// What `answer` receives for a line that was too long (it contains a newline, which no line can).
    static let overflowMarker = "\n(overlong line)"
}
