import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HCIPackets
import EventLoops

/// An H4 transport over a connected, non-blocking file descriptor: a Unix or TCP socket, or a serial port.
///
/// Nothing here blocks the loop. A packet the kernel does not take at once is queued and flushed when the
/// descriptor is writable again (the loop's write interest); packets leave in the order they were sent,
/// and a queue that makes no progress for `writeDeadline` ends the transport with a timeout. Every system
/// call on the descriptor, and its close, happens under one lock, so no read or write can reach another
/// file that reuses the number after the close.
///
/// Its timers (the write deadline, the ENOBUFS retry) are kept on the clock of the loop it runs on; a host
/// on it makes its loop on `clock`, so a test that gives the transport a stepped clock owns every deadline
/// of the host as well.
public final class FileDescriptorTransport: HCITransport {
    private struct State {
        var framer: H4Framer
        var receive: (@Sendable (HCITransportEvent) -> Void)?
        var loop: EventLoop?
        var closed = false
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var queue = OutgoingQueue()
        /// The stall timer, while bytes are queued.
        var stallTimer: UInt64?
        /// When the kernel last took bytes from the queue (or the queue began).
        var lastProgress: ContinuousClock.Instant?
        /// The retry timer, while the last write failed with ENOBUFS (which POLLOUT does not signal).
        var retryTimer: UInt64?
    }

    public let moniker: String
    /// The clock a host on this transport keeps its deadlines on (real time unless a test gives its own).
    public let clock: LoopClock
    private let fd: Int32
    private let writeDeadline: Duration
    /// Called after every read (TCP re-arms TCP_QUICKACK here).
    private let afterRead: @Sendable (Int32) -> Void
    /// Called just before close (TCP sets SO_LINGER 0 here for an abortive close).
    private let beforeClose: @Sendable (Int32) -> Void
    private let semantics: FileDescriptorSemantics
    private let state: Mutex<State>

    /// At most this many bytes wait for the kernel; a peer that reads nothing makes the next send fail.
    public static let queueLimit = 1 << 20

    /// A transport that owns `fd` (it is made non-blocking, and closed when the transport ends). `clock` is
    /// the clock a host on it keeps its deadlines on (`HCITransport.clock`): real time for a controller, a
    /// test's stepped clock for a scripted one on a socket pair.
    public init(moniker: String, fd: Int32, semantics: FileDescriptorSemantics = .stream, writeDeadline: Duration = .seconds(2),
                maximumDataLength: Int = 4096, clock: LoopClock = .real, afterRead: @escaping @Sendable (Int32) -> Void = { _ in },
                beforeClose: @escaping @Sendable (Int32) -> Void = { _ in }) {
        self.moniker = moniker
        self.clock = clock
        self.fd = fd
        self.semantics = semantics
        self.writeDeadline = writeDeadline
        self.afterRead = afterRead
        self.beforeClose = beforeClose
        self.state = Mutex(State(framer: H4Framer(maximumDataLength: maximumDataLength)))
        POSIX.setNonBlocking(fd)
    }

    public func start(on loop: EventLoop, receive: @escaping @Sendable (HCITransportEvent) -> Void) throws(HCITransportError) {
        let closed = state.withLock { state -> Bool in
            guard !state.closed else { return true }
            state.receive = receive
            state.loop = loop
            // Under the lock, so a close cannot come between the check and the watch.
            loop.watch(fd: fd, onReadable: { [self] in readAvailable() }, onWritable: { [self] in flush() })
            return false
        }
        if closed { throw HCITransportError(.closedByHost, "\(moniker): cannot start: transport is closed") }
    }

    /// Writes `packet`, or queues what the kernel does not take now. Throws when the transport is closed,
    /// the write fails, or the queue is over `queueLimit`.
    public func send(_ packet: HCIPacket) throws(HCITransportError) {
        let bytes = packet.h4Bytes
        let outcome: SendOutcome = state.withLock { state in
            if state.closed {
                return .failed(HCITransportError(.closedByHost, "\(moniker): cannot send \(packet): transport is closed"))
            }
            if state.queue.isEmpty {
                switch write(bytes, from: 0, describing: "\(packet)") {
                case .done: return .sent
                case .partial(let written): state.queue.append(bytes, written: written, describing: "\(packet)")
                case .wouldBlock(let noBuffers): state.queue.append(bytes, written: 0, describing: "\(packet)", noBuffers: noBuffers)
                case .failed(let error): return .failed(error)
                }
                return .queued(first: true, noBuffers: state.queue.lastWriteHadNoBuffers)
            }
            guard state.queue.byteCount + bytes.count <= Self.queueLimit else {
                return .failed(HCITransportError(.timeout, "\(moniker): cannot send \(packet): \(state.queue.byteCount) bytes are "
                    + "already waiting for the other end to read (\(state.queue.describeHead()))"))
            }
            state.queue.append(bytes, written: 0, describing: "\(packet)")
            return .queued(first: false, noBuffers: false)
        }
        switch outcome {
        case .sent, .queued(first: false, _):
            return
        case .queued(first: true, let noBuffers):
            startWaiting(noBuffers: noBuffers)
        case .failed(let error):
            throw error
        }
    }

    public func close() {
        finish(HCITransportError(.closedByHost, "\(moniker): closed by the host"))
    }

    /// Reads at most this many times (of up to 64 KiB) per readiness callback, then returns to the loop
    /// (epoll is level triggered, so the rest is read on the next turn): a controller that streams
    /// advertising reports must not starve the loop's timers and queued work, where command deadlines and
    /// scan limits live. Measured with StreamingControllerTests: 32 reads (2 MiB, ~140,000 reports) per
    /// turn made a 300 ms deadline end the test after 1.5 s; 4 reads, after 0.44 s.
    static let readsPerTurn = 4

    private func readAvailable() {
        for _ in 0..<Self.readsPerTurn {
            let outcome: ReadOutcome = state.withLock { state in
                if state.closed { return .stop }
                let count = state.buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    afterRead(fd)
                    do {
                        // A read that did not fill the buffer drained the socket (epoll says when more comes):
                        // no second read just to hear EAGAIN.
                        return .packets(try state.framer.feed(state.buffer[0..<count]), state.receive, drained: count < state.buffer.count)
                    } catch {
                        return .failed(HCITransportError(.framing, "\(moniker): \(error)"))
                    }
                }
                if count == 0 {
                    return .failed(HCITransportError(.closedByPeer, semantics.closedByPeerMessage ?? "\(moniker): the controller closed the connection"))
                }
                let code = errno
                if code == EAGAIN || code == EWOULDBLOCK || code == EINTR { return .stop }
                return .failed(semantics.describeFailure(code, "read")
                    ?? HCITransportError(code == ECONNRESET ? .closedByPeer : .io, "\(moniker): read failed: \(POSIX.describe(code))"))
            }
            switch outcome {
            case .stop:
                return
            case .packets(let packets, let receive, let drained):
                for packet in packets { receive?(.packet(packet)) }
                if drained { return }
            case .failed(let error):
                finish(error)
                return
            }
        }
    }

    /// Writes what is queued, oldest first, until the kernel takes no more or the queue is empty.
    private func flush() {
        let outcome: FlushOutcome = state.withLock { state in
            if state.closed { return .idle }
            while let head = state.queue.head {
                switch write(head.bytes, from: head.written, describing: head.description) {
                case .done:
                    state.queue.removeHead()
                    state.lastProgress = now(state)
                case .partial(let written):
                    state.queue.advanceHead(to: written)
                    state.lastProgress = now(state)
                    return .waiting(noBuffers: false)
                case .wouldBlock(let noBuffers):
                    state.queue.noteNoBuffers(noBuffers)
                    return .waiting(noBuffers: noBuffers)
                case .failed(let error):
                    return .failed(error)
                }
            }
            let timers = [state.stallTimer, state.retryTimer].compactMap { $0 }
            state.stallTimer = nil
            state.retryTimer = nil
            return .drained(state.loop, timers)
        }
        switch outcome {
        case .idle:
            return
        case .waiting(let noBuffers):
            if noBuffers { scheduleRetry() }
        case .drained(let loop, let timers):
            for timer in timers { loop?.cancelTimer(timer) }
            loop?.setWriteInterest(false)
        case .failed(let error):
            finish(error)
        }
    }

    /// Bytes are queued: turns the write interest on and starts the stall deadline.
    private func startWaiting(noBuffers: Bool) {
        state.withLock { state in
            guard !state.closed, let loop = state.loop, !state.queue.isEmpty else { return }
            let now = loop.now
            loop.setWriteInterest(true)
            if let old = state.stallTimer { loop.cancelTimer(old) }
            state.lastProgress = now
            state.stallTimer = loop.schedule(at: now.advanced(by: writeDeadline)) { [self] in stalled() }
        }
        if noBuffers { scheduleRetry() }
    }

    /// ENOBUFS is not signalled by POLLOUT: look again within 5 ms.
    private func scheduleRetry() {
        state.withLock { state in
            guard !state.closed, let loop = state.loop, state.retryTimer == nil else { return }
            state.retryTimer = loop.schedule(at: loop.now.advanced(by: .milliseconds(5))) { [self] in retryFlush() }
        }
    }

    private func retryFlush() {
        state.withLock { $0.retryTimer = nil }
        flush()
    }

    /// The stall deadline passed: ends the transport unless the kernel took bytes meanwhile (then the
    /// deadline runs again from that progress).
    private func stalled() {
        let head = state.withLock { state -> String? in
            state.stallTimer = nil
            guard !state.queue.isEmpty, !state.closed, let loop = state.loop else { return nil }
            let now = loop.now
            let next = (state.lastProgress ?? now).advanced(by: writeDeadline)
            if next > now {
                state.stallTimer = loop.schedule(at: next) { [self] in stalled() }
                return nil
            }
            return state.queue.describeHead()
        }
        guard let head else { return }
        finish(HCITransportError(.timeout, "\(moniker): writing stalled: the other end took nothing for \(writeDeadline) (\(head))"))
    }

    /// Now on the clock of the loop the transport runs on (its timers' clock), or on `clock` before it runs.
    private func now(_ state: borrowing State) -> ContinuousClock.Instant {
        state.loop?.now ?? clock.now
    }

    private enum WriteResult {
        case done
        case partial(written: Int)
        case wouldBlock(noBuffers: Bool)
        case failed(HCITransportError)
    }

    /// One non-blocking write of `bytes[offset...]`; called under the lock.
    private func write(_ bytes: [UInt8], from offset: Int, describing packet: @autoclosure () -> String) -> WriteResult {
        var written = offset
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { raw in
                POSIX.writeNoSignal(fd, raw.baseAddress.map { $0 + written }, bytes.count - written)
            }
            if result > 0 {
                if semantics.wholePacketWrites && result < bytes.count {
                    return .failed(HCITransportError(.io, "\(moniker): the kernel took \(result) of \(bytes.count) bytes of \(packet())"))
                }
                written += result
                continue
            }
            let code = errno
            if result < 0 && code == EINTR { continue }
            if result < 0 && (code == EAGAIN || code == EWOULDBLOCK) {
                return written > offset ? .partial(written: written) : .wouldBlock(noBuffers: false)
            }
            if result < 0 && semantics.wholePacketWrites && code == ENOBUFS { return .wouldBlock(noBuffers: true) }
            return .failed(semantics.describeFailure(code, "write of \(packet())")
                ?? HCITransportError(code == EPIPE || code == ECONNRESET ? .closedByPeer : .io,
                                     "\(moniker): write of \(packet()) failed: \(POSIX.describe(code))"))
        }
        return .done
    }

    private enum ReadOutcome {
        case stop
        case packets([HCIPacket], (@Sendable (HCITransportEvent) -> Void)?, drained: Bool)
        case failed(HCITransportError)
    }

    private enum SendOutcome {
        case sent
        case queued(first: Bool, noBuffers: Bool)
        case failed(HCITransportError)
    }

    private enum FlushOutcome {
        case idle
        case waiting(noBuffers: Bool)
        case drained(EventLoop?, [UInt64])
        case failed(HCITransportError)
    }

    private func finish(_ error: HCITransportError) {
        let ending = state.withLock { state -> (receive: (@Sendable (HCITransportEvent) -> Void)?, loop: EventLoop?, timers: [UInt64])? in
            if state.closed { return nil }
            state.closed = true
            defer { state.receive = nil }
            // Out of epoll before the number is free for reuse, then closed while no read or write can start.
            state.loop?.unwatch()
            beforeClose(fd)
            POSIX.closeFD(fd)
            state.queue = OutgoingQueue()
            let timers = [state.stallTimer, state.retryTimer].compactMap { $0 }
            return (state.receive, state.loop, timers)
        }
        guard let ending else { return }
        for timer in ending.timers { ending.loop?.cancelTimer(timer) }
        ending.receive?(.closed(error))
    }

    deinit {
        let open = state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        if open { POSIX.closeFD(fd) }
    }
}
