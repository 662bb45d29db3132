import HCIPackets
import EventLoops
import HCITransports
import Synchronization

/// The HCI transport between a host and a `SimulatedController`, in memory, carrying H4 bytes both ways:
/// what the host sends is written as H4 bytes into the controller's framer, and the controller's bytes go
/// through an `H4Framer` here and reach the host's `receive` on the host's loop (`loop.execute`), as a
/// socket transport's would.
package final class SimulatedTransport: HCITransport {
    /// `sim:NAME`.
    package let moniker: String
    /// The controller it is connected to.
    package let controller: SimulatedController
    let session: UInt64

    private struct State {
        var loop: EventLoop?
        var receive: (@Sendable (HCITransportEvent) -> Void)?
        var framer = H4Framer(maximumDataLength: 65_535)
        /// Why it closed, once it has.
        var closeReason: HCITransportError?
        /// `.closed` was handed to the host (or `start` threw it): nothing more is delivered.
        var closeDelivered = false
    }

    private let state = Mutex(State())

    init(controller: SimulatedController, session: UInt64) {
        self.controller = controller
        self.moniker = controller.moniker
        self.session = session
    }

    /// The world's clock: a host on this transport keeps its deadlines on the air's time.
    package var clock: LoopClock { controller.air.clock }

    /// On virtual time, the air's loop: the whole world runs on one thread.
    package var sharedLoop: EventLoop? { controller.air.clock.isVirtual ? controller.air.loop : nil }

    /// Whether neither side has closed it.
    package var isOpen: Bool { state.withLock { $0.closeReason == nil } }

    package func start(on loop: EventLoop, receive: @escaping @Sendable (HCITransportEvent) -> Void) throws(HCITransportError) {
        let failure = state.withLock { state -> HCITransportError? in
            if let reason = state.closeReason {
                state.closeDelivered = true
                return reason
            }
            if state.loop != nil { return HCITransportError(.io, "\(moniker): already started") }
            state.loop = loop
            state.receive = receive
            return nil
        }
        if let failure { throw failure }
    }

    package func send(_ packet: HCIPacket) throws(HCITransportError) {
        try write(packet.h4Bytes)
        controller.tapped(packet, received: false)
    }

    /// Writes raw H4 bytes to the controller, as a host would write them to a UART (tests use it to send
    /// what `HCIPacket` cannot express).
    package func write(_ bytes: [UInt8]) throws(HCITransportError) {
        if let reason = state.withLock({ $0.closeReason }) { throw reason }
        controller.hostWrote(bytes, session: session)
    }

    package func close() {
        guard markClosed(HCITransportError(.closedByHost, "\(moniker): closed by the host")) else { return }
        controller.detach(session: session)
        deliverClosed()
    }

    /// The controller went away (power-off, USB reset): the host gets `.closed` after what was sent before.
    func controllerClosed(_ error: HCITransportError) {
        guard markClosed(error) else { return }
        deliverClosed()
    }

    /// Bytes from the controller, on the air's loop: framed and delivered on the host's loop.
    func controllerSent(_ bytes: [UInt8]) {
        guard let loop = state.withLock({ $0.closeDelivered ? nil : $0.loop }) else { return }
        loop.execute { [self] in self.frame(bytes) }
    }

    private func frame(_ bytes: [UInt8]) {
        let (receive, outcome) = state.withLock { state -> ((@Sendable (HCITransportEvent) -> Void)?, Result<[HCIPacket], H4FramingError>) in
            guard !state.closeDelivered, let receive = state.receive else { return (nil, .success([])) }
            do throws(H4FramingError) {
                return (receive, .success(try state.framer.feed(bytes)))
            } catch {
                return (receive, .failure(error))
            }
        }
        guard let receive else { return }
        switch outcome {
        case .success(let packets):
            for packet in packets {
                controller.tapped(packet, received: true)
                receive(.packet(packet))
            }
        case .failure(let error):
            if markClosed(HCITransportError(.framing, "\(moniker): \(error)")) {
                controller.detach(session: session)
                deliverClosed()
            }
        }
    }

    /// Records the first close; false when it was already closed.
    private func markClosed(_ error: HCITransportError) -> Bool {
        state.withLock { state in
            guard state.closeReason == nil else { return false }
            state.closeReason = error
            return true
        }
    }

    /// Hands `.closed` to the host once, on its loop, after everything queued before it.
    private func deliverClosed() {
        guard let loop = state.withLock({ $0.loop }) else { return } // not started: `start` throws the reason
        loop.execute { [self] in
            let (receive, reason) = self.state.withLock { state -> ((@Sendable (HCITransportEvent) -> Void)?, HCITransportError?) in
                guard !state.closeDelivered, let reason = state.closeReason else { return (nil, nil) }
                state.closeDelivered = true
                let receive = state.receive
                state.receive = nil
                state.loop = nil
                return (receive, reason)
            }
            if let receive, let reason { receive(.closed(reason)) }
        }
    }
}
