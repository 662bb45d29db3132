import HCITransports

/// Named simulated controllers on one air, an optional power switch, and the transports hosts open to
/// them (`sim:NAME`): the world the embedded default bench (rigs/simulated.json) runs on.
///
/// ```swift
/// let world = try SimulatedWorld(.standard)
/// let host = try HCIHost(transport: world.openTransport(named: "central"))
/// try await host.initialize()
/// await world.powerSwitch?.setPort(1, on: false)   // the peripheral loses power
/// await world.shutdown()
/// ```
public final class SimulatedWorld: Sendable {
    /// What the world was built from.
    package let description: SimulatedWorldDescription
    /// The air all its controllers share.
    package let air: SimulatedAir
    /// The controllers, in the description's order.
    package let controllers: [SimulatedController]
    /// The power switch, when the description has one.
    package let powerSwitch: SimulatedPowerSwitch?
    private let byName: [String: SimulatedController]

    /// Builds the world with every controller powered on. Throws when the description has problems
    /// (see `SimulatedWorldDescription.problems`) or the air's loop cannot start.
    package init(_ description: SimulatedWorldDescription = .standard) throws(SimulatedWorldError) {
        let problems = description.problems
        guard problems.isEmpty else { throw SimulatedWorldError(problems) }
        let air: SimulatedAir
        do {
            air = try SimulatedAir(timing: description.timing)
        } catch {
            throw SimulatedWorldError(["cannot start the air's event loop: \(error)"])
        }
        let controllers = description.controllers.map { SimulatedController(configuration: $0, air: air) }
        var byName: [String: SimulatedController] = [:]
        for controller in controllers { byName[controller.name] = controller }
        self.description = description
        self.air = air
        self.controllers = controllers
        self.byName = byName
        self.powerSwitch = description.powerSwitch.map { description in
            SimulatedPowerSwitch(name: description.name,
                                 ports: description.ports.compactMap { port in byName[port.controller].map { (port.number, $0) } })
        }
        air.install(controllers)
        for controller in controllers { controller.markPoweredOn() }
    }

    /// The controllers' names, in the description's order.
    package var controllerNames: [String] { controllers.map(\.name) }

    /// The controller named `name`, if the world has one.
    package func controller(named name: String) -> SimulatedController? { byName[name] }

    /// Opens the transport of the controller named `name` (moniker `sim:NAME`). `.notFound` when the world
    /// has no such controller or it is switched off; `.io` while another host has it open.
    package func openTransport(named name: String) throws(HCITransportError) -> any HCITransport {
        guard let controller = byName[name] else {
            throw HCITransportError(.notFound, "sim:\(name): the simulated bench has no controller named '\(name)' (it has: \(controllerNames.joined(separator: ", ")))")
        }
        return try controller.openTransport()
    }

    /// Opens the transport a `sim:NAME` moniker names.
    package func openTransport(moniker text: String) throws(HCITransportError) -> any HCITransport {
        guard case .simulated(let name) = try TransportMoniker(parsing: text) else {
            throw HCITransportError(.invalidMoniker, "'\(text)' is not a simulated controller's moniker (sim:NAME)")
        }
        return try openTransport(named: name)
    }

    /// A USB reset of the controller's adapter: its transport closes at once (as the device drops off the
    /// bus), its links are lost as on a power-off, and after the timing's USB reset delay it is back,
    /// fresh, for a new transport. Returns when it is back. `.notFound` when there is no such controller
    /// or it is switched off.
    package func usbReset(named name: String) async throws(HCITransportError) {
        guard let controller = byName[name] else {
            throw HCITransportError(.notFound, "sim:\(name): the simulated bench has no controller named '\(name)'")
        }
        guard controller.isPoweredOn else {
            throw HCITransportError(.notFound, "sim:\(name): cannot reset the adapter of '\(name)': it is switched off")
        }
        await controller.powerOff(why: "the adapter was reset (USB reset)")
        try? await Task.sleep(for: description.timing.usbResetDelay, clock: air.clock)
        await controller.powerOn()
    }

    /// Powers every controller off (closing their transports) and stops the air's loop.
    package func shutdown() async {
        for controller in controllers { await controller.powerOff(why: "the simulated bench shut down") }
        air.stop()
    }
}
