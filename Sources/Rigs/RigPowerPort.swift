import DeviceControl
import StrictJSON

/// One switch port of a rig as the harness drives it: the switch restricted to that port (an accessory's
/// `power.port`, the adapter's `adapter.power.port`), and whether the rig accepts transitions on it that
/// cannot be verified (`"verify": "none"` on the switch).
///
/// It is itself a `PowerSwitch` whose transitions fail with `.verificationFailed` when the switch could
/// not see them happen and the rig has not said that is acceptable: a dead outlet is a bench failure,
/// never the accessory's. Accepted unverified transitions keep `.unverified` in their result, for the record.
public struct RigPowerPort: PowerSwitch {
    public let powerSwitch: any PowerSwitch
    public let acceptsUnverified: Bool

    public init(_ powerSwitch: any PowerSwitch, acceptsUnverified: Bool = false) {
        self.powerSwitch = powerSwitch
        self.acceptsUnverified = acceptsUnverified
    }

    public var name: String { powerSwitch.name }

    /// Powers the port on; the transition is verified, or accepted as unverified by the rig.
    public func on() async throws -> PowerTransition { try checked(try await powerSwitch.on()) }

    /// Powers the port off; the transition is verified, or accepted as unverified by the rig.
    public func off() async throws -> PowerTransition { try checked(try await powerSwitch.off()) }

    /// Off, `offTime`, on; both halves verified, or accepted as unverified by the rig.
    public func cycle(offTime: Duration) async throws -> PowerTransition {
        try checked(try await powerSwitch.cycle(offTime: offTime))
    }

    public func state() async throws -> PowerStatus { try await powerSwitch.state() }

    func checked(_ transition: PowerTransition) throws -> PowerTransition {
        guard case .unverified(let reason) = transition.verification, !acceptsUnverified else { return transition }
        throw PowerSwitchError(.verificationFailed,
                               "\(name) \(transition.action) could not be verified (\(reason)); name a device behind the port in the switch's verify.devices, or say \"verify\": \"none\" to accept unverified transitions")
    }
}

/// The switch ports of a rig: one per accessory with `power`, and the adapter's own.
public struct RigPowerPorts: Sendable {
    public var accessories: [String: RigPowerPort]
    public var adapter: RigPowerPort?

    public init(accessories: [String: RigPowerPort] = [:], adapter: RigPowerPort? = nil) {
        self.accessories = accessories
        self.adapter = adapter
    }

    /// The simulated bench's ports (verified by construction).
    public init(runtime: SimulatedRigRuntime) {
        var accessories: [String: RigPowerPort] = [:]
        for accessory in runtime.rig.accessories {
            if let port = runtime.powerSwitch(for: accessory.name) { accessories[accessory.name] = RigPowerPort(port) }
        }
        self.init(accessories: accessories, adapter: runtime.adapterPowerSwitch().map { RigPowerPort($0) })
    }

    /// A hardware bench's ports from its switch descriptions (`rig.powerSwitches`): each accessory's switch
    /// restricted to its `power.port`. A reference to a switch or port the rig does not have is a rig
    /// error (the rig reader refuses such a rig already; this holds for rigs built in code too).
    public init(rig: Rig, switches descriptions: [PowerSwitchDescription],
                make: (PowerSwitchDescription) throws -> any PowerSwitch = { try PowerSwitchFactory.makeSwitch($0) }) throws {
        func port(_ reference: Rig.PowerReference, _ field: String) throws -> RigPowerPort {
            guard let description = descriptions.first(where: { $0.name == reference.switchName }) else {
                throw InputError("\(field).switch: no power switch named '\(reference.switchName)' (the rig has: \(descriptions.map(\.name).sorted().joined(separator: ", ")))")
            }
            guard let restricted = description.restricted(toPort: reference.port) else {
                let ports = description.ports.map(String.init).joined(separator: ", ")
                throw InputError("\(field).port: \(reference.port) is not a port of switch \(description.name) (ports: \(ports))")
            }
            return RigPowerPort(try make(restricted), acceptsUnverified: description.verify.acceptsUnverified)
        }
        var accessories: [String: RigPowerPort] = [:]
        for (index, accessory) in rig.accessories.enumerated() {
            if let reference = accessory.power { accessories[accessory.name] = try port(reference, "accessories[\(index)].power") }
        }
        self.init(accessories: accessories, adapter: try rig.adapter.power.map { try port($0, "adapter.power") })
    }
}
