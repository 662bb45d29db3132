import HCIPackets
import EventLoops
import HCITransports
import Synchronization

/// One served host's view of the shared adapter transport, as the `HCITransport` its `SocketBridge`
/// drives: packets the adapter sends while this host is attached reach the bridge's loop; packets the
/// host sends go to the adapter on the adapter's loop, in order. Closing it detaches the host and leaves
/// the adapter open for the next one.
final class AdapterAttachment: HCITransport {
    let moniker: String
    private let adapterLoop: EventLoop
    private let sendToAdapter: @Sendable (HCIPacket) -> Void
    private struct State {
        var loop: EventLoop?
        var receive: (@Sendable (HCITransportEvent) -> Void)?
        var closeReason: HCITransportError?
    }
    private let state = Mutex(State())

    /// `sendToAdapter` runs on `adapterLoop` for each packet the host sends, in order.
    init(moniker: String, adapterLoop: EventLoop, sendToAdapter: @escaping @Sendable (HCIPacket) -> Void) {
        self.moniker = moniker
        self.adapterLoop = adapterLoop
        self.sendToAdapter = sendToAdapter
    }

    func start(on loop: EventLoop, receive: @escaping @Sendable (HCITransportEvent) -> Void) throws(HCITransportError) {
        let failure = state.withLock { state -> HCITransportError? in
            if let reason = state.closeReason { return reason }
            state.loop = loop
            state.receive = receive
            return nil
        }
        if let failure { throw failure }
    }

    func send(_ packet: HCIPacket) throws(HCITransportError) {
        if let reason = state.withLock({ $0.closeReason }) { throw reason }
        let sendToAdapter = sendToAdapter
        adapterLoop.execute { sendToAdapter(packet) }
    }

    /// A packet from the adapter (on the adapter's loop): handed to the host's side on its loop.
    func deliver(_ packet: HCIPacket) {
        guard let (loop, receive) = state.withLock({ state in state.closeReason == nil ? state.loop.map { ($0, state.receive) } : nil }),
              let receive else { return }
        loop.execute { receive(.packet(packet)) }
    }

    func close() {
        end(HCITransportError(.closedByHost, "\(moniker): closed by the host"))
    }

    /// The adapter went away: the host's side hears `.closed` with `error`.
    func adapterClosed(_ error: HCITransportError) {
        end(error)
    }

    private func end(_ error: HCITransportError) {
        let ending = state.withLock { state -> (EventLoop?, (@Sendable (HCITransportEvent) -> Void)?)? in
            guard state.closeReason == nil else { return nil }
            state.closeReason = error
            defer { state.receive = nil }
            return (state.loop, state.receive)
        }
        guard let (loop, receive) = ending else { return }
        if let loop, let receive { loop.execute { receive(.closed(error)) } }
    }
}
