import DeviceControl
import HCITransports
import StrictJSON
import Simulation

/// A rig's simulated bench brought to life: the simulated air and controllers, the accessory firmware
/// running on them, and power switches behind DeviceControl's `PowerSwitch` protocol.
public final class SimulatedRigRuntime: Sendable {
    public let rig: Rig
    public let world: SimulatedWorld
    /// The simulated accessories by rig accessory name.
    public let accessories: [String: SimulatedAccessory]

    /// Builds the bench; accessories stay unpowered until `powerOnAll()`.
    public init(rig: Rig) throws(InputError) {
        guard var description = rig.simulation else {
            throw InputError("rig \(rig.name): it has no simulation block, so sim: monikers name nothing")
        }
        // A firmware that refuses connections is a controller that never accepts them.
        for accessory in rig.accessories where accessory.simulated?.faults.refusesConnections == true {
            if let index = description.controllers.firstIndex(where: { $0.name == accessory.simulated?.controller }) {
                description.controllers[index].faults.insert(.refusesConnections)
            }
        }
        do {
            world = try SimulatedWorld(description)
        } catch {
            throw InputError("rig \(rig.name): simulation: \(error)")
        }
        var accessories: [String: SimulatedAccessory] = [:]
        for accessory in rig.accessories {
            guard let firmware = accessory.simulated, let controller = world.controller(named: firmware.controller) else { continue }
            accessories[accessory.name] = SimulatedAccessory(description: firmware, controller: controller)
        }
        self.rig = rig
        self.accessories = accessories
    }

    /// Powers every simulated accessory on, in the rig's order (so a seeded world replays the same way),
    /// and waits until each has booted.
    public func powerOnAll() async throws {
        for name in rig.accessories.map(\.name) {
            if let accessory = accessories[name] { try await accessory.powerOn() }
        }
    }

    /// The simulated meter that measures a rig accessory (its `meter`, of kind simulated), reading its current
    /// model on the world's clock; nil when it has none.
    package func meter(for accessoryName: String) -> SimulatedMeter? {
        guard let name = rig.accessory(named: accessoryName)?.meter, let meter = rig.meters.first(where: { $0.name == name }),
              meter.kind == .simulated, let trace = accessories[accessoryName]?.chargeTrace else { return nil }
        return SimulatedMeter(name: name, supplyVolts: meter.supplyVolts, trace: trace)
    }

    /// Opens a transport to `sim:NAME`.
    public func openTransport(named name: String) throws(HCITransportError) -> any HCITransport {
        try world.openTransport(named: name)
    }

    /// The switch port that powers a rig accessory, as a `PowerSwitch`.
    public func powerSwitch(for accessoryName: String) -> (any PowerSwitch)? {
        guard let accessory = accessories[accessoryName], let reference = rig.accessory(named: accessoryName)?.power else { return nil }
        return SimulatedPortSwitch(name: "\(reference.switchName) port \(reference.port)", accessory: accessory)
    }

    /// The switch port that powers the rig's adapter (`adapter.power`), when it is a simulated controller.
    public func adapterPowerSwitch() -> (any PowerSwitch)? {
        guard let reference = rig.adapter.power,
              case .simulated(let name)? = try? TransportMoniker(parsing: rig.adapter.moniker),
              let controller = world.controller(named: name) else { return nil }
        return SimulatedControllerSwitch(name: "\(reference.switchName) port \(reference.port)", controller: controller)
    }

    /// A USB reset of a simulated adapter: its transport closes, the controller comes back fresh.
    public func usbReset(adapter name: String) async throws(HCITransportError) {
        try await world.usbReset(named: name)
    }

    public func shutdown() async {
        for accessory in accessories.values { await accessory.powerOff() }
        await world.shutdown()
    }
}

/// A simulated switch port that powers one simulated accessory. Verified by construction: off means the
/// controller has left the air; on means the firmware has booted and is advertising (or, with its
/// stops-advertising fault, has decided not to).
public struct SimulatedPortSwitch: PowerSwitch {
    public let name: String
    let accessory: SimulatedAccessory

    public func on() async throws -> PowerTransition {
        let clock = accessory.controller.air.clock
        let start = clock.now
        try await accessory.powerOn()
        let boots = await accessory.bootCount
        return PowerTransition(switchName: name, action: .on,
                               verification: .verified(evidence: "\(accessory.controller.moniker) powered; firmware booted (boot \(boots))"),
                               elapsed: start.duration(to: clock.now), steps: ["simulated power on"])
    }

    public func off() async throws -> PowerTransition {
        let clock = accessory.controller.air.clock
        let start = clock.now
        await accessory.powerOff()
        let powered = accessory.controller.isPoweredOn
        guard !powered else {
            throw PowerSwitchError(.verificationFailed, "\(name) reports off but \(accessory.controller.moniker) is still powered")
        }
        return PowerTransition(switchName: name, action: .off,
                               verification: .verified(evidence: "\(accessory.controller.moniker) left the air"),
                               elapsed: start.duration(to: clock.now), steps: ["simulated power off"])
    }

    public func state() async throws -> PowerStatus {
        PowerStatus(state: accessory.controller.isPoweredOn ? .on : .off, detail: "simulated")
    }

    /// Off, `offTime` on the world's clock, on.
    public func cycle(offTime: Duration) async throws -> PowerTransition {
        try await cycle(offTime: offTime, clock: accessory.controller.air.clock)
    }
}

/// A simulated switch port that powers a bare simulated controller (the adapter): off takes it off the
/// air and closes its host's transport, as unplugging a dongle's power does.
public struct SimulatedControllerSwitch: PowerSwitch {
    public let name: String
    let controller: SimulatedController

    public func on() async throws -> PowerTransition {
        let clock = controller.air.clock
        let start = clock.now
        await controller.powerOn()
        guard controller.isPoweredOn else { throw PowerSwitchError(.verificationFailed, "\(name) reports on but \(controller.moniker) is not powered") }
        return PowerTransition(switchName: name, action: .on, verification: .verified(evidence: "\(controller.moniker) powered"),
                               elapsed: start.duration(to: clock.now), steps: ["simulated power on"])
    }

    public func off() async throws -> PowerTransition {
        let clock = controller.air.clock
        let start = clock.now
        await controller.powerOff()
        guard !controller.isPoweredOn else { throw PowerSwitchError(.verificationFailed, "\(name) reports off but \(controller.moniker) is still powered") }
        return PowerTransition(switchName: name, action: .off, verification: .verified(evidence: "\(controller.moniker) left the air"),
                               elapsed: start.duration(to: clock.now), steps: ["simulated power off"])
    }

    public func state() async throws -> PowerStatus {
        PowerStatus(state: controller.isPoweredOn ? .on : .off, detail: "simulated")
    }

    /// Off, `offTime` on the world's clock, on.
    public func cycle(offTime: Duration) async throws -> PowerTransition {
        try await cycle(offTime: offTime, clock: controller.air.clock)
    }
}

