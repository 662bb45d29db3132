import HCIPackets
import HCITransports
import Synchronization

/// One simulated LE controller on a `SimulatedAir`: it consumes and produces H4 bytes like btvirt or a USB
/// dongle, so the host code that drives it is the code that drives real hardware.
///
/// The controller's power is its own (`powerOff()`, `powerOn()`; a `SimulatedPowerSwitch` calls them):
/// losing power closes its transport to the host — as unplugging a dongle does — takes it off the air
/// (its peers time out after their supervision timeout), and powering on brings it back fresh, with the
/// state a Reset leaves. One host at a time may have it open (`openTransport()`, moniker `sim:NAME`).
package final class SimulatedController: Sendable {
    /// The name in the moniker `sim:NAME`.
    package let name: String
    /// Identity, RSSI, buffers and faults.
    package let configuration: SimulatedWorldDescription.Controller
    /// The air this controller is on.
    package let air: SimulatedAir

    private struct Port {
        var poweredOn = false
        /// The host's transport, while one is open.
        var transport: SimulatedTransport?
        var session: UInt64 = 0
        var nextSession: UInt64 = 1
    }

    private let port = Mutex(Port())
    /// Where a test case's capture sees this controller from its own host's side (`tap(into:)`).
    private let captureTap = Mutex<MonitorCapture.Controller?>(nil)

    init(configuration: SimulatedWorldDescription.Controller, air: SimulatedAir) {
        self.name = configuration.name
        self.configuration = configuration
        self.air = air
    }

    /// `sim:NAME`.
    package var moniker: String { "sim:\(name)" }

    /// Whether the controller has power (and so is on the air).
    package var isPoweredOn: Bool { port.withLock { $0.poweredOn } }

    /// Whether a host has it open.
    package var isOpen: Bool { port.withLock { $0.transport != nil } }

    /// Opens the controller's HCI transport for a host. Fails with `.notFound` while the controller is
    /// switched off, and with `.io` while another host has it open.
    package func openTransport() throws(HCITransportError) -> SimulatedTransport {
        let opened = port.withLock { port -> Result<SimulatedTransport, HCITransportError> in
            guard port.poweredOn else {
                return .failure(HCITransportError(.notFound, "\(moniker): the simulated controller '\(name)' is switched off"))
            }
            guard port.transport == nil else {
                return .failure(HCITransportError(.io, "\(moniker): the simulated controller '\(name)' is in use by another host"))
            }
            let session = port.nextSession
            port.nextSession += 1
            let transport = SimulatedTransport(controller: self, session: session)
            port.transport = transport
            port.session = session
            return .success(transport)
        }
        let transport = try opened.get()
        captureTap.withLock { $0 }?.opened()
        return transport
    }

    /// Cuts the power: the host's transport closes (the host sees `.closedByPeer`), and the controller
    /// leaves the air. Returns once the air has dropped it; does nothing when already off.
    package func powerOff() async {
        await powerOff(why: "the simulated controller lost power")
    }

    /// Restores power: the controller comes back in its power-on state, ready for a new transport.
    /// Does nothing when already on.
    package func powerOn() async {
        guard !isPoweredOn else { return }
        await air.add(self)
        port.withLock { $0.poweredOn = true }
        captureTap.withLock { $0 }?.added(address: configuration.address)
    }

    func powerOff(why: String) async {
        let transport = port.withLock { port -> SimulatedTransport?? in
            guard port.poweredOn else { return nil }
            port.poweredOn = false
            defer { port.transport = nil }
            return .some(port.transport)
        }
        guard let transport else { return }
        transport?.controllerClosed(HCITransportError(.closedByPeer, "\(moniker): \(why)"))
        await air.remove(name)
        if let tap = captureTap.withLock({ $0 }) {
            if transport != nil { tap.closed() }
            tap.removed()
        }
    }

    /// Marks a controller installed on the air at the world's construction as powered.
    func markPoweredOn() { port.withLock { $0.poweredOn = true } }

    // MARK: Bytes

    /// Bytes the host wrote on its transport.
    func hostWrote(_ bytes: [UInt8], session: UInt64) {
        air.receive(bytes, for: name, session: session)
    }

    /// Whether `session` is the open transport's.
    func isAttached(session: UInt64) -> Bool {
        port.withLock { $0.transport != nil && $0.session == session }
    }

    /// A transport the host closed lets go of the controller.
    func detach(session: UInt64) {
        let detached = port.withLock { port -> Bool in
            guard port.session == session, port.transport != nil else { return false }
            port.transport = nil
            return true
        }
        if detached { captureTap.withLock { $0 }?.closed() }
    }

    // MARK: Capture

    /// Shows this controller's traffic with its own host — both directions — as controller `tap.index` of a
    /// test case's monitor capture, and its power cuts and host closes as the index going and coming;
    /// nil stops it. A controller already powered (and opened) is announced at once.
    package func tap(into tap: MonitorCapture.Controller?) {
        captureTap.withLock { $0 = tap }
        guard let tap else { return }
        let (powered, open) = port.withLock { ($0.poweredOn, $0.transport != nil) }
        if powered { tap.added(address: configuration.address) }
        if open { tap.opened() }
    }

    /// A packet between this controller and its host, for the capture tap.
    func tapped(_ packet: HCIPacket, received: Bool) {
        captureTap.withLock { $0 }?.packet(packet, received: received)
    }

    /// Bytes for the host (on the air's loop); dropped when no host has the controller open.
    func deliver(_ bytes: [UInt8]) {
        port.withLock { $0.transport }?.controllerSent(bytes)
    }
}
