import Synchronization
import HCIPackets
import EventLoops

/// Wraps a transport so that every packet in both directions lands in a capture, stamped on the transport's
/// clock (a simulated bench's virtual time maps onto the wall clock from the moment of wrapping, so a
/// capture's timestamps are what they would have been at real time).
///
/// Into an H4 btsnoop file of its own (`hil info --capture`), or as one controller index of a monitor
/// capture (a test case's), where opening and closing the transport show as the controller coming and going.
public final class CapturingTransport: HCITransport {
    public let base: any HCITransport
    public let destination: Destination
    public var moniker: String { base.moniker }
    public var clock: LoopClock { base.clock }
    public var sharedLoop: EventLoop? { base.sharedLoop }
    private let stamps: CaptureClock
    /// Whether the monitor capture has been told the host let go of the controller.
    private let closeRecorded = Mutex(false)

    /// Where the packets go.
    public enum Destination: Sendable {
        /// A btsnoop file of its own, H4 datalink.
        case file(BtsnoopWriter)
        /// One controller index of a monitor capture.
        case controller(MonitorCapture.Controller, bus: MonitorCapture.Bus)
    }

    public convenience init(_ base: any HCITransport, writer: BtsnoopWriter) {
        self.init(base, destination: .file(writer))
    }

    public init(_ base: any HCITransport, destination: Destination) {
        self.base = base
        self.destination = destination
        if case .controller(let controller, _) = destination {
            stamps = controller.capture.clock
        } else {
            stamps = CaptureClock(base.clock)
        }
    }

    public func start(on loop: EventLoop, receive: @escaping @Sendable (HCITransportEvent) -> Void) throws(HCITransportError) {
        if case .controller(let controller, let bus) = destination {
            controller.added(bus: bus)
            controller.opened()
        }
        do {
            try base.start(on: loop) { [self] event in
                switch event {
                case .packet(let packet): record(packet, received: true)
                case .closed: recordClose()
                }
                receive(event)
            }
        } catch {
            recordClose()
            throw error
        }
    }

    public func send(_ packet: HCIPacket) throws(HCITransportError) {
        record(packet, received: false)
        try base.send(packet)
    }

    public func close() {
        base.close()
        recordClose()
    }

    private func record(_ packet: HCIPacket, received: Bool) {
        switch destination {
        case .file(let writer): writer.write(packet, received: received, unixMicroseconds: stamps.now)
        case .controller(let controller, _): controller.packet(packet, received: received)
        }
    }

    private func recordClose() {
        guard case .controller(let controller, _) = destination else { return }
        let first = closeRecorded.withLock { recorded in
            defer { recorded = true }
            return !recorded
        }
        if first {
            controller.closed()
            controller.removed()
        }
    }
}
