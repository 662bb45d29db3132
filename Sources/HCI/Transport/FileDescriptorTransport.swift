import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An H4 transport over a connected, non-blocking file descriptor: a Unix or TCP socket, or a serial port.
public final class FileDescriptorTransport: HCITransport {
    private struct State {
        var framer: H4Framer
        var receive: (@Sendable (HCITransportEvent) -> Void)?
        var loop: EventLoop?
        var closed = false
        var buffer = [UInt8](repeating: 0, count: 65_536)
    }

    public let moniker: String
    private let fd: Int32
    private let writeDeadline: Duration
    /// Called after every read (TCP re-arms TCP_QUICKACK here).
    private let afterRead: @Sendable (Int32) -> Void
    /// Called just before close (TCP sets SO_LINGER 0 here for an abortive close).
    private let beforeClose: @Sendable (Int32) -> Void
    private let semantics: FileDescriptorSemantics
    private let state: Mutex<State>

    /// A transport that owns `fd` (it is made non-blocking, and closed when the transport ends).
    public init(moniker: String, fd: Int32, semantics: FileDescriptorSemantics = .stream, writeDeadline: Duration = .seconds(2),
                maximumDataLength: Int = 4096, afterRead: @escaping @Sendable (Int32) -> Void = { _ in },
                beforeClose: @escaping @Sendable (Int32) -> Void = { _ in }) {
        self.moniker = moniker
        self.fd = fd
        self.semantics = semantics
        self.writeDeadline = writeDeadline
        self.afterRead = afterRead
        self.beforeClose = beforeClose
        self.state = Mutex(State(framer: H4Framer(maximumDataLength: maximumDataLength)))
        POSIX.setNonBlocking(fd)
    }

    public func start(on loop: EventLoop, receive: @escaping @Sendable (HCITransportEvent) -> Void) throws(HCITransportError) {
        state.withLock {
            $0.receive = receive
            $0.loop = loop
        }
        loop.watch(fd: fd) { [self] in readAvailable() }
    }

    public func send(_ packet: HCIPacket) throws(HCITransportError) {
        if state.withLock({ $0.closed }) {
            throw HCITransportError(.closedByHost, "\(moniker): cannot send \(packet): transport is closed")
        }
        let bytes = packet.h4Bytes
        var written = 0
        let deadline = ContinuousClock.now.advanced(by: writeDeadline)
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { raw in
                POSIX.writeNoSignal(fd, raw.baseAddress.map { $0 + written }, bytes.count - written)
            }
            if result > 0 {
                if semantics.wholePacketWrites && result < bytes.count {
                    throw HCITransportError(.io, "\(moniker): the kernel took \(result) of \(bytes.count) bytes of \(packet)")
                }
                written += result
                continue
            }
            let code = errno
            let retry = code == EAGAIN || code == EWOULDBLOCK || code == EINTR || (semantics.wholePacketWrites && code == ENOBUFS)
            guard result < 0, retry else {
                throw semantics.describeFailure(code, "write of \(packet)")
                    ?? HCITransportError(code == EPIPE || code == ECONNRESET ? .closedByPeer : .io, "\(moniker): write failed: \(POSIX.describe(code))")
            }
            // ENOBUFS is not signalled by POLLOUT: look again within 5 ms.
            let until = code == ENOBUFS ? min(deadline, ContinuousClock.now.advanced(by: .milliseconds(5))) : deadline
            if !POSIX.wait(fd: fd, events: Int16(POLLOUT), until: until), ContinuousClock.now >= deadline {
                throw HCITransportError(.timeout, "\(moniker): writing \(packet) stalled: \(written) of \(bytes.count) bytes written after \(writeDeadline)")
            }
        }
    }

    public func close() {
        finish(HCITransportError(.closedByHost, "\(moniker): closed by the host"))
    }

    /// Reads at most this many times per readiness callback, then returns to the loop (poll is level
    /// triggered, so the rest is read on the next turn): a controller that streams advertising reports
    /// must not starve the loop's timers and queued work, where command deadlines and scan limits live.
    static let readsPerTurn = 32

    private func readAvailable() {
        for _ in 0..<Self.readsPerTurn {
            let outcome: ReadOutcome = state.withLock { state in
                if state.closed { return .stop }
                let count = state.buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    do {
                        return .packets(try state.framer.feed(state.buffer[0..<count]), state.receive)
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
            case .packets(let packets, let receive):
                afterRead(fd)
                for packet in packets { receive?(.packet(packet)) }
            case .failed(let error):
                finish(error)
                return
            }
        }
    }

    private enum ReadOutcome {
        case stop
        case packets([HCIPacket], (@Sendable (HCITransportEvent) -> Void)?)
        case failed(HCITransportError)
    }

    private func finish(_ error: HCITransportError) {
        let ending = state.withLock { state -> (receive: (@Sendable (HCITransportEvent) -> Void)?, loop: EventLoop?)? in
            if state.closed { return nil }
            state.closed = true
            defer { state.receive = nil }
            return (state.receive, state.loop)
        }
        guard let ending else { return }
        ending.loop?.unwatch()
        beforeClose(fd)
        POSIX.closeFD(fd)
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
