import HCIPackets

/// A simulated world in plain data: its controllers on one air, an optional power switch, and timings.
///
/// A rig file carries it as `simulation` (`init(reading:)`); every field but the controllers' names and
/// addresses has a default. `SimulatedWorld(description)` validates it.
public struct SimulatedWorldDescription: Sendable, Hashable {
    package var controllers: [Controller]
    package var powerSwitch: PowerSwitch?
    package var timing: SimulationTiming

    package init(controllers: [Controller], powerSwitch: PowerSwitch? = nil, timing: SimulationTiming = .realTime) {
        self.controllers = controllers
        self.powerSwitch = powerSwitch
        self.timing = timing
    }

    /// The default world of `hil`: `sim:central` and `sim:peripheral`, with a two-port power switch
    /// (port 1 feeds the peripheral, port 2 the central).
    package static let standard = SimulatedWorldDescription(
        controllers: [
            Controller(name: "central", address: BDAddress(0x00_5A_1D_00_00_01)),
            Controller(name: "peripheral", address: BDAddress(0x00_5A_1D_00_00_02), rssi: -48),
        ],
        powerSwitch: PowerSwitch(ports: [PowerSwitch.Port(number: 1, controller: "peripheral"),
                                         PowerSwitch.Port(number: 2, controller: "central")]))

    /// Every problem with the description, or none: empty or repeated names, repeated addresses, RSSI or
    /// buffer sizes out of range, power switch ports that repeat or name no controller.
    package var problems: [String] {
        var problems: [String] = []
        var names = Set<String>()
        var addresses = Set<String>()
        if controllers.isEmpty { problems.append("a simulated bench needs at least one controller") }
        for controller in controllers {
            problems += controller.problems
            if !names.insert(controller.name).inserted { problems.append("controller name '\(controller.name)' is used twice") }
            let key = "\(controller.addressType.isRandom ? "random" : "public") \(controller.address)"
            if !addresses.insert(key).inserted { problems.append("\(key) address is used twice") }
        }
        if let powerSwitch {
            var ports = Set<Int>()
            for port in powerSwitch.ports {
                if !ports.insert(port.number).inserted { problems.append("power switch port \(port.number) is listed twice") }
                if !names.contains(port.controller) {
                    problems.append("power switch port \(port.number) feeds '\(port.controller)', which is not a controller of this bench")
                }
            }
        }
        return problems
    }
}
