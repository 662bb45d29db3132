import Support
import HCIPackets
import EventLoops
/// A byte path to one controller: a socket, a serial port, a USB device or a simulated controller.
///
/// Transports are driven by the host's `EventLoop`: `start` and `send` are called on the loop's thread,
/// and the transport calls `receive` on that thread for every packet it reads, then once with
/// `.closed` when it ends (the peer closed, an I/O error, a framing error, or `close()`).
public protocol HCITransport: AnyObject, Sendable {
    /// The moniker it was opened from, e.g. `unix:/tmp/bt-server-le`.
    var moniker: String { get }
    /// Begins delivering packets.
    func start(on loop: EventLoop, receive: @escaping @Sendable (HCITransportEvent) -> Void) throws(HCITransportError)
    /// Writes one packet (a transport may queue what it cannot write at once), or throws when it cannot:
    /// the transport is closed, the write failed, or too much is already waiting.
    func send(_ packet: HCIPacket) throws(HCITransportError)
    /// Ends the transport; a `.closed` event follows unless one was already delivered.
    func close()
    /// The clock a host on this transport keeps its deadlines on: real time, except for a simulated
    /// controller on virtual time.
    var clock: LoopClock { get }
    /// The loop a host on this transport should share instead of starting its own (nil: its own): a
    /// simulated world on virtual time runs hosts, air and accessories on one thread, so handing a packet
    /// over costs a queue append, not a wake-up of another thread.
    var sharedLoop: EventLoop? { get }
}

extension HCITransport {
    public var clock: LoopClock { .real }
    public var sharedLoop: EventLoop? { nil }
}

/// What a transport delivers to its host.
public enum HCITransportEvent: Sendable {
    case packet(HCIPacket)
    case closed(HCITransportError)
}

/// Why a transport could not be opened, or why it ended.
public typealias HCITransportError = KindedError<HCITransportErrorKind>

/// Why a transport could not be opened, or why it ended: `HCITransportError.Kind`.
public enum HCITransportErrorKind: String, Sendable, Hashable {
    /// The moniker does not name a transport this build knows.
    case invalidMoniker
    /// Nothing is there: no socket file, no device node, no listener.
    case notFound
    /// The operating system refused access.
    case permissionDenied
    /// The other end closed the connection.
    case closedByPeer
    /// The host closed it.
    case closedByHost
    /// A system call failed.
    case io
    /// The byte stream is not valid H4.
    case framing
    /// A read, write or connect did not finish in time.
    case timeout
    /// The platform or kernel lacks what the transport needs.
    case unsupported
}
