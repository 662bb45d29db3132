import EventLoops
import HCIPackets
import HCITransports
import Synchronization

/// A transport that passes everything through and keeps every ACL packet its host receives, with the
/// instant (on the transport's clock) it arrived: what the controller delivered PDU by PDU, which the host
/// reassembles out of sight.
final class RecordingTransport: HCITransport {
    struct Arrival: Sendable {
        let at: ContinuousClock.Instant
        let packet: ACLDataPacket
    }

    let base: any HCITransport
    private let arrivals = Mutex<[Arrival]>([])

    init(_ base: any HCITransport) { self.base = base }

    var moniker: String { base.moniker }
    var clock: LoopClock { base.clock }
    var sharedLoop: EventLoop? { base.sharedLoop }

    /// The ACL packets received so far, oldest first.
    var received: [Arrival] { arrivals.withLock { $0 } }

    func start(on loop: EventLoop, receive: @escaping @Sendable (HCITransportEvent) -> Void) throws(HCITransportError) {
        let clock = base.clock
        try base.start(on: loop) { [self] event in
            if case .packet(.aclData(let packet)) = event {
                self.arrivals.withLock { $0.append(Arrival(at: clock.now, packet: packet)) }
            }
            receive(event)
        }
    }

    func send(_ packet: HCIPacket) throws(HCITransportError) { try base.send(packet) }
    func close() { base.close() }
}
