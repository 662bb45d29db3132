// A controller in memory: the fuzz harness decides what it says.
import HCIPackets
import EventLoops
import HCITransports
import Synchronization

/// An `HCITransport` on the harness's virtual-time loop: what the host sends is recorded (and each
/// command answered through `script`, if it has an answer), and the harness injects controller packets
/// with `deliver`, as a controller's reader would, on the loop.
final class FuzzTransport: HCITransport {
    /// H4 bytes (indicator included) answering a command, or nil to stay silent.
    typealias Script = @Sendable (HCICommandPacket) -> [UInt8]?

    let moniker = "fuzz:controller"
    let loop: EventLoop
    private let script: Script
    private struct State {
        var receive: (@Sendable (HCITransportEvent) -> Void)?
        var closed = false
        var sent: [HCIPacket] = []
    }
    private let state = Mutex(State())

    init(loop: EventLoop, script: @escaping Script) {
        self.loop = loop
        self.script = script
    }

    var clock: LoopClock { loop.clock }
    var sharedLoop: EventLoop? { loop }

    /// Every packet the host sent, in order.
    var sent: [HCIPacket] { state.withLock { $0.sent } }
    /// ACL packets the host sent.
    var sentACL: [ACLDataPacket] { sent.compactMap { if case .aclData(let acl) = $0 { acl } else { nil } } }

    func start(on loop: EventLoop, receive: @escaping @Sendable (HCITransportEvent) -> Void) throws(HCITransportError) {
        try state.withLock { state throws(HCITransportError) in
            if state.closed { throw HCITransportError(.closedByHost, "fuzz transport closed") }
            state.receive = receive
        }
    }

    func send(_ packet: HCIPacket) throws(HCITransportError) {
        try state.withLock { state throws(HCITransportError) in
            if state.closed { throw HCITransportError(.closedByHost, "fuzz transport closed") }
            state.sent.append(packet)
        }
        if case .command(let command) = packet, let answer = script(command) { deliver(h4: answer) }
    }

    func close() {
        let receive = state.withLock { state -> (@Sendable (HCITransportEvent) -> Void)? in
            defer { state.closed = true; state.receive = nil }
            return state.closed ? nil : state.receive
        }
        if let receive {
            loop.execute { receive(.closed(HCITransportError(.closedByHost, "fuzz transport closed by the host"))) }
        }
    }

    /// Hands the host H4 bytes (one or more packets) soon, on the loop; an unframeable rest is dropped.
    func deliver(h4 bytes: [UInt8]) {
        var framer = H4Framer()
        guard let packets = try? framer.feed(bytes) else { return }
        for packet in packets { deliver(packet) }
    }

    func deliver(_ packet: HCIPacket) {
        let receive = state.withLock { $0.receive }
        guard let receive else { return }
        loop.execute { receive(.packet(packet)) }
    }
}
