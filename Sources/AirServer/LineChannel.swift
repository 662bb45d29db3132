import SocketServing
import EventLoops
import HCITransports
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A line-protocol session over file descriptors — one client of the control socket, or standard input
/// and output — on an `EventLoop` of its own: each line read is answered, in order, with the one line
/// `answer` returns.
///
/// Nothing of it blocks a thread of Swift's pool, and nothing a client does grows it without bound: the
/// client's socket is non-blocking, answers wait in a bounded queue (`AnswerQueue`) written when the
/// socket is writable, a line is at most `maximumLineLength` bytes (`LineFramer`), and at most
/// `maximumPendingLines` requests wait for their answers. A client past a limit ends the channel (see
/// `End`); so does one that takes none of its answers for `writeStallTimeout` on the loop's clock. End of
/// input ends it once what was asked is answered (it never stops the server by itself). Standard output
/// is written as it blocks — on the channel's own thread, never the pool's.
final class LineChannel: Sendable {
    let name: String
    private let input: Int32
    private let output: Int32
    /// A socket (one descriptor, non-blocking, closed at the end) rather than standard input and output.
    private let isSocket: Bool
    private let limits: ControlLimits
    private let loop: EventLoop

    /// What waits to be answered: a request, or the answer to a line that was too long.
    private enum Pending {
        case request(String)
        case overlong
    }

    private struct State {
        var framer: LineFramer
        var pending: [Pending] = []
        /// The first pending line is with `answer`.
        var answering = false
        var answers = AnswerQueue()
        /// The channel ends with this once everything pending is answered and written.
        var endWhenDone: End?
        var stallTimer: UInt64?
        var ended = false
        var answer: (@Sendable (String) async -> String)?
        var onEnd: (@Sendable (End) -> Void)?
    }
    private let state: Mutex<State>

    /// A channel reading `input` and writing `output`; with `isSocket` both are one socket of a client,
    /// closed at the end. Its loop keeps time on `clock` (a served air's).
    init(name: String, input: Int32, output: Int32, isSocket: Bool, limits: ControlLimits, clock: LoopClock = .real) throws(ServeError) {
        do {
            loop = try EventLoop(label: "sim-serve-lines", clock: clock)
        } catch {
            throw ServeError("\(name): cannot start its event loop: \(error)")
        }
        self.name = name
        self.input = input
        self.output = output
        self.isSocket = isSocket
        self.limits = limits
        state = Mutex(State(framer: LineFramer(maximumLineLength: limits.maximumLineLength)))
    }

    /// Starts reading and answering; `onEnd` hears, once, why the channel ended, after its socket closed.
    func start(answer: @escaping @Sendable (String) async -> String, onEnd: @escaping @Sendable (End) -> Void) {
        let stoppedAlready = state.withLock { state -> Bool in
            guard !state.ended else { return true }
            state.answer = answer
            state.onEnd = onEnd
            return false
        }
        if stoppedAlready { return onEnd(.stopped) }
        loop.execute { [self] in
            guard !state.withLock({ $0.ended }) else { return }
            if isSocket {
                POSIX.setNonBlocking(input)
                SocketOptions.setSendBuffer(input, bytes: limits.socketSendBuffer)
                loop.watch(fd: input, onReadable: { [self] in readable() }, onWritable: { [self] in flush() })
            } else {
                loop.watch(fd: input, onReadable: { [self] in readable() })
            }
        }
    }

    /// Bytes of answers the kernel has not taken yet.
    var queuedAnswerBytes: Int { state.withLock { $0.answers.count } }

    /// Ends the session (the server is shutting down): nothing more is read; the request being answered
    /// still gets its answer, as far as the client takes it at once.
    func stop() {
        loop.execute { [self] in
            let idle = state.withLock { state -> Bool in
                state.pending = state.answering ? Array(state.pending.prefix(1)) : []
                if state.endWhenDone == nil { state.endWhenDone = .stopped }
                return !state.answering
            }
            stopReading()
            if idle { finish(.stopped) }
        }
    }

    // MARK: Reading (on the loop)

    private func readable() {
        if state.withLock({ $0.endWhenDone != nil }) {
            // Read interest is off: only a hang-up or an error comes here; the client is gone.
            return finish(.inputEnded)
        }
        var chunk = [UInt8](repeating: 0, count: 4096)
        // A socket is read until the kernel has no more (at most 64 KiB a turn, so one client cannot hold
        // the loop); a blocking descriptor (standard input) once per wake-up, so the loop never blocks in read.
        for _ in 0..<(isSocket ? 16 : 1) {
            let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK { break }
            }
            guard count > 0 else {
                inputEnded()
                break
            }
            let flood = state.withLock { state -> Bool in
                for piece in state.framer.feed(chunk[0..<count]) {
                    guard state.pending.count < limits.maximumPendingLines else { return true }
                    switch piece {
                    case .line(let line): state.pending.append(.request(line))
                    case .overlong:
                        state.pending.append(.overlong)
                        state.endWhenDone = .overlongLine(limit: limits.maximumLineLength)
                    }
                }
                return false
            }
            if flood { return finish(.flooded(limit: limits.maximumPendingLines)) }
            if state.withLock({ $0.endWhenDone != nil }) {
                stopReading()
                break
            }
        }
        answerNext()
    }

    /// End of input: what is pending is still answered, then the channel ends.
    private func inputEnded() {
        state.withLock { state in
            if state.endWhenDone == nil { state.endWhenDone = .inputEnded }
        }
        stopReading()
    }

    /// No more reading: a socket's read interest goes off (writes may still be due); standard input is
    /// no longer watched at all.
    private func stopReading() {
        if isSocket { loop.setReadInterest(false) } else { loop.unwatch() }
    }

    // MARK: Answering (on the loop)

    /// Hands the next pending line to `answer`, unless one is with it already; ends the channel when all
    /// is answered and written and it was to end.
    private func answerNext() {
        let next = state.withLock { state -> (Pending, (@Sendable (String) async -> String)?)? in
            guard !state.ended, !state.answering, let first = state.pending.first else { return nil }
            state.answering = true
            return (first, state.answer)
        }
        guard let (pending, answer) = next else { return endIfDone() }
        switch pending {
        case .overlong:
            answered("error: line longer than \(limits.maximumLineLength) bytes; closing")
        case .request(let line):
            // On the channel's loop, not the pool: the answer comes back here.
            Task(executorPreference: loop) { [self] in
                let reply = await answer?(line) ?? "failed: the server is gone"
                answered(reply)
            }
        }
    }

    private func answered(_ reply: String) {
        let (ended, queued) = state.withLock { state -> (Bool, Int) in
            state.answering = false
            guard !state.ended else { return (true, 0) }
            if !state.pending.isEmpty { state.pending.removeFirst() }
            state.answers.append(reply + "\n")
            return (false, state.answers.count)
        }
        if ended { return loop.shutdown() } // `finish` left the loop running for this answer
        guard queued <= limits.maximumQueuedAnswerBytes else {
            return finish(.notReading(queued: queued, limit: limits.maximumQueuedAnswerBytes))
        }
        flush()
        answerNext()
    }

    // MARK: Writing (on the loop)

    /// Writes what the kernel takes now; what it does not take waits for the socket to be writable, and a
    /// client that takes nothing for `writeStallTimeout` is dropped.
    private func flush() {
        let (flushed, empty, armed) = state.withLock { state in
            let flushed = state.answers.flush(to: output)
            return (flushed, state.answers.isEmpty, state.stallTimer)
        }
        switch flushed {
        case .failed(let reason):
            return finish(.writeFailed(reason))
        case .wrote(let count):
            if empty {
                if isSocket { loop.setWriteInterest(false) }
                if let armed { loop.cancelTimer(armed) }
                state.withLock { $0.stallTimer = nil }
                return endIfDone()
            }
            loop.setWriteInterest(true)
            // The deadline counts from the last byte the client took.
            guard count > 0 || armed == nil else { return }
            if let armed { loop.cancelTimer(armed) }
            let timeout = limits.writeStallTimeout
            let timer = loop.schedule(after: timeout) { [self] in finish(.stalled(timeout)) }
            state.withLock { $0.stallTimer = timer }
        }
    }

    /// Ends the channel when it was to end and nothing is left to answer; nothing left to write either,
    /// unless the server is closing it (then what the client did not take at once is not waited for).
    private func endIfDone() {
        let done = state.withLock { state -> End? in
            guard !state.ended, let end = state.endWhenDone, state.pending.isEmpty, !state.answering,
                  state.answers.isEmpty || end == .stopped else { return nil }
            return end
        }
        if let done { finish(done) }
    }

    /// Ends the channel, once: closes a socket, tells `onEnd`, and ends the loop (after the answer under
    /// way, if one is: it comes back to this loop).
    private func finish(_ end: End) {
        let ending = state.withLock { state -> (onEnd: (@Sendable (End) -> Void)?, timer: UInt64?, answering: Bool)? in
            guard !state.ended else { return nil }
            state.ended = true
            defer {
                state.onEnd = nil
                state.answer = nil
                state.stallTimer = nil
                state.pending = []
            }
            return (state.onEnd, state.stallTimer, state.answering)
        }
        guard let ending else { return }
        if let timer = ending.timer { loop.cancelTimer(timer) }
        loop.unwatch()
        if isSocket { _ = SocketOptions.closeDescriptor(input) }
        ending.onEnd?(end)
        if !ending.answering { loop.shutdown() }
    }
}
