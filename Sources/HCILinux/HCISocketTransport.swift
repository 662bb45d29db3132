import HCI
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `hci-socket:N`: one Linux adapter on `HCI_CHANNEL_USER`, the kernel's own host stack stepped aside.
///
/// Opening brings the adapter down (`HCIDEVDOWN`: the user channel cannot be bound while it is up) and
/// binds the user channel, retrying `EBUSY` for `bindDeadline` (an unpowered controller is still being
/// closed for a moment after the ioctl). Each read returns exactly one packet with its H4 indicator;
/// each write sends one. Closing the socket hands the adapter back to the kernel.
public final class HCISocketTransport: HCITransport {
    private struct State {
        var framer = H4Framer()
        var receive: (@Sendable (HCITransportEvent) -> Void)?
        var loop: EventLoop?
        var closed = false
        var buffer = [UInt8](repeating: 0, count: 4096 + 8)
    }

    public let moniker: String
    public let index: Int
    private let fd: Int32
    private let writeDeadline: Duration
    private let state = Mutex(State())

    private init(moniker: String, index: Int, fd: Int32, writeDeadline: Duration) {
        self.moniker = moniker
        self.index = index
        self.fd = fd
        self.writeDeadline = writeDeadline
    }

    /// Opens `hci-socket:index`. Errors say which call failed and what to do (see `HCISocketAdvice`).
    public static func open(index: Int, moniker: String, bindDeadline: Duration = .seconds(3),
                            writeDeadline: Duration = .seconds(2)) throws(HCITransportError) -> HCISocketTransport {
        guard (0..<Int(HCISocketABI.deviceNone)).contains(index) else {
            throw HCITransportError(.invalidMoniker, "\(moniker): adapter number \(index) is out of range")
        }
        let fd: Int32
        switch HCISocket.open() {
        case .success(let opened): fd = opened
        case .failure(let error): throw HCISocketAdvice.error(error.code, step: .socket, index: index, moniker: moniker)
        }
        // Down first: binding the user channel needs the adapter closed. ENODEV and EPERM come back
        // again from bind with the same meaning, so only other failures are reported from here.
        if let error = HCISocket.deviceControl(fd, HCISocketABI.ioctlDeviceDown, index: index),
           error.code != EPERM, error.code != EACCES, error.code != EALREADY {
            HCISocket.close(fd)
            throw HCISocketAdvice.error(error.code, step: .deviceDown, index: index, moniker: moniker)
        }
        let address = HCISocketAddress(device: UInt16(index), channel: HCISocketABI.channelUser)
        let clock = ContinuousClock()
        let start = clock.now
        var attempts = 0
        while true {
            attempts += 1
            guard let error = HCISocket.bind(fd, address) else { break }
            let elapsed = clock.now - start
            if error.code == EBUSY && elapsed < bindDeadline {
                // Still closing, or something powered it back on: bring it down again and retry.
                _ = HCISocket.deviceControl(fd, HCISocketABI.ioctlDeviceDown, index: index)
                usleep(50_000)
                continue
            }
            HCISocket.close(fd)
            var failure = HCISocketAdvice.error(error.code, step: .bind, index: index, moniker: moniker)
            if error.code == EBUSY {
                failure = HCITransportError(failure.kind, failure.message + " (still busy after \(attempts) attempts over \(formatDuration(elapsed)))")
            }
            throw failure
        }
        return HCISocketTransport(moniker: moniker, index: index, fd: fd, writeDeadline: writeDeadline)
    }

    public func start(on loop: EventLoop, receive: @escaping @Sendable (HCITransportEvent) -> Void) throws(HCITransportError) {
        let closed = state.withLock { state -> Bool in
            state.receive = receive
            state.loop = loop
            return state.closed
        }
        if closed { throw HCITransportError(.closedByHost, "\(moniker): cannot start: transport is closed") }
        loop.watch(fd: fd) { [self] in readAvailable() }
    }

    public func send(_ packet: HCIPacket) throws(HCITransportError) {
        if state.withLock({ $0.closed }) {
            throw HCITransportError(.closedByHost, "\(moniker): cannot send \(packet): transport is closed")
        }
        let bytes = packet.h4Bytes
        let deadline = ContinuousClock.now.advanced(by: writeDeadline)
        while true {
            let result = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if result == bytes.count { return }
            if result >= 0 {
                throw HCITransportError(.io, "\(moniker): the kernel took \(result) of \(bytes.count) bytes of \(packet)")
            }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK || code == ENOBUFS {
                var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                let remaining = ContinuousClock.now.duration(to: deadline)
                if remaining <= .zero {
                    throw HCITransportError(.timeout, "\(moniker): writing \(packet) stalled: the socket took nothing for \(formatDuration(writeDeadline))")
                }
                let ms = Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
                _ = poll(&entry, 1, code == ENOBUFS ? min(ms, 5) : ms)
                continue
            }
            throw Self.lost(code, moniker: moniker, index: index, while: "write of \(packet)")
        }
    }

    public func close() {
        finish(HCITransportError(.closedByHost, "\(moniker): closed by the host"))
    }

    /// The error for a socket that failed after it was bound.
    static func lost(_ code: Int32, moniker: String, index: Int, while doing: String) -> HCITransportError {
        switch code {
        case EPIPE, ENODEV, ENETDOWN, ENXIO:
            return HCITransportError(.closedByPeer, "\(moniker): hci\(index) went away during \(doing) (\(HCISocketAdvice.errnoName(code))): unplugged, reset by its driver, or its driver unbound")
        default:
            return HCITransportError(.io, "\(moniker): \(doing) failed: \(HCISocketAdvice.errnoName(code))")
        }
    }

    private enum ReadOutcome {
        case stop
        case packets([HCIPacket], (@Sendable (HCITransportEvent) -> Void)?)
        case failed(HCITransportError)
    }

    private func readAvailable() {
        while true {
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
                if count == 0 { return .failed(HCITransportError(.closedByPeer, "\(moniker): hci\(index) closed the socket")) }
                let code = errno
                if code == EAGAIN || code == EWOULDBLOCK || code == EINTR { return .stop }
                return .failed(Self.lost(code, moniker: moniker, index: index, while: "read"))
            }
            switch outcome {
            case .stop:
                return
            case .packets(let packets, let receive):
                for packet in packets { receive?(.packet(packet)) }
            case .failed(let error):
                finish(error)
                return
            }
        }
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
        HCISocket.close(fd)
        ending.receive?(.closed(error))
    }

    deinit {
        let open = state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        if open { HCISocket.close(fd) }
    }
}
