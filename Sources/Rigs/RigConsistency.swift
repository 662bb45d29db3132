import DeviceControl
import HCITransports
import StrictJSON
import Simulation

/// The checks across a rig's fields, each a one-line `InputError` naming the field: a power reference names
/// a switch of the rig and one of its ports (`accessories[0].power.port: 4 is not a port of switch
/// sim-switch (ports: 1, 2, 3)`); no two users share a switch port or a simulated controller; a simulated
/// port feeds the controller its user runs on; a `sim:` adapter names a controller of the simulation.
struct RigConsistency {
    let rig: Rig

    init(_ rig: Rig) { self.rig = rig }

    /// A switch's ports and, for the simulated switch, the controller each feeds.
    struct SwitchPorts {
        var ports: [Int]
        var feeds: [Int: String]?
    }

    func check() throws(InputError) {
        let simulation = rig.simulation
        var switches: [String: SwitchPorts] = [:]
        for entry in rig.powerSwitches { switches[entry.name] = SwitchPorts(ports: entry.ports, feeds: nil) }
        if let simulated = simulation?.powerSwitch {
            if let index = rig.powerSwitches.firstIndex(where: { $0.name == simulated.name }) {
                throw InputError(at: "simulation.powerSwitch.name", "'\(simulated.name)' is also the name of powerSwitches[\(index)]")
            }
            var feeds: [Int: String] = [:]
            for port in simulated.ports { feeds[port.number] = port.controller }
            switches[simulated.name] = SwitchPorts(ports: simulated.ports.map(\.number), feeds: feeds)
        }
        let controllers = simulation?.controllers.map(\.name) ?? []

        // The adapter's simulated controller.
        var adapterController: String?
        if case .simulated(let name)? = try? TransportMoniker(parsing: rig.adapter.moniker) {
            guard simulation != nil else {
                throw InputError(at: "adapter.moniker", "\(rig.adapter.moniker) names a simulated controller, but the rig has no simulation block")
            }
            guard controllers.contains(name) else {
                throw InputError(at: "adapter.moniker", "\(rig.adapter.moniker): no simulated controller named '\(name)' (simulation.controllers has: \(controllers.joined(separator: ", ")))")
            }
            adapterController = name
        }

        var portUsers: [String: String] = [:]
        func checkPower(_ reference: Rig.PowerReference?, at path: String, user: String, runsOn controller: String?) throws(InputError) {
            guard let reference else { return }
            guard let entry = switches[reference.switchName] else {
                throw InputError(at: "\(path).switch", "no power switch named '\(reference.switchName)' (the rig has: \(switches.keys.sorted().joined(separator: ", ").ifEmpty("none")))")
            }
            guard entry.ports.contains(reference.port) else {
                throw InputError(at: "\(path).port", "\(reference.port) is not a port of switch \(reference.switchName) (ports: \(entry.ports.map(String.init).joined(separator: ", ")))")
            }
            let key = "\(reference.switchName) port \(reference.port)"
            if let first = portUsers[key] { throw InputError(at: path, "\(key) already powers \(first)") }
            portUsers[key] = user
            if let feeds = entry.feeds {
                guard let controller else {
                    throw InputError(at: "\(path).switch", "\(reference.switchName) is a simulated switch, which powers simulated controllers only; give this accessory a simulated block")
                }
                if let fed = feeds[reference.port], fed != controller {
                    throw InputError(at: "\(path).port", "port \(reference.port) of \(reference.switchName) feeds controller '\(fed)', not '\(controller)' that this runs on")
                }
            }
        }
        try checkPower(rig.adapter.power, at: "adapter.power", user: "the adapter (adapter.power)", runsOn: adapterController)

        var names: [String: Int] = [:]
        var meterUsers: [String: String] = [:]
        var controllerUsers: [String: String] = [:]
        if let adapterController { controllerUsers[adapterController] = "the adapter (adapter.moniker \(rig.adapter.moniker))" }
        for (index, accessory) in rig.accessories.enumerated() {
            let path = "accessories[\(index)]"
            if let first = names[accessory.name] {
                throw InputError(at: "\(path).name", "'\(accessory.name)' is used twice (first by accessories[\(first)])")
            }
            names[accessory.name] = index
            if let simulated = accessory.simulated {
                guard simulation != nil else {
                    throw InputError(at: "\(path).simulated", "a simulated accessory needs the rig's simulation block")
                }
                guard controllers.contains(simulated.controller) else {
                    throw InputError(at: "\(path).simulated.controller", "no simulated controller named '\(simulated.controller)' (simulation.controllers has: \(controllers.joined(separator: ", ")))")
                }
                if let first = controllerUsers[simulated.controller] {
                    throw InputError(at: "\(path).simulated.controller", "controller '\(simulated.controller)' is already used by \(first)")
                }
                controllerUsers[simulated.controller] = "\(path) (\(accessory.name))"
            }
            try checkPower(accessory.power, at: "\(path).power", user: "\(path) (\(accessory.name))", runsOn: accessory.simulated?.controller)
            try checkMeter(of: accessory, at: path, users: &meterUsers)
            try checkPPK2Switch(of: accessory, at: path)
        }
        try checkAdapterNotOnPPK2()
    }
}

extension RigConsistency {
    /// An accessory's `meter` names a meter of the rig that measures nothing else; a simulated meter measures a
    /// simulated accessory's current model.
    func checkMeter(of accessory: Rig.Accessory, at path: String, users: inout [String: String]) throws(InputError) {
        guard let name = accessory.meter else { return }
        guard let meter = rig.meters.first(where: { $0.name == name }) else {
            throw InputError(at: "\(path).meter", "no meter named '\(name)' (the rig has: \(rig.meters.map(\.name).joined(separator: ", ").ifEmpty("none")))")
        }
        if let first = users[name] { throw InputError(at: "\(path).meter", "meter '\(name)' already measures \(first)") }
        users[name] = "\(path) (\(accessory.name))"
        if meter.kind == .simulated, accessory.simulated?.current == nil {
            throw InputError(at: "\(path).meter", "'\(name)' is a simulated meter, which measures a simulated accessory's current model; give this accessory a simulated block with a current block")
        }
    }
}

extension RigConsistency {
    /// An accessory powered by a ppk2 switch is measured by that switch's meter, a ppk2 in source mode: the switch
    /// turns the supply the meter gives, on the stream the bench opens for the accessory's meter.
    func checkPPK2Switch(of accessory: Rig.Accessory, at path: String) throws(InputError) {
        guard let reference = accessory.power, let description = rig.powerSwitches.first(where: { $0.name == reference.switchName }),
              case .ppk2(let name) = description.backend else { return }
        guard let meter = rig.meters.first(where: { $0.name == name }) else {
            throw InputError(at: "\(path).power.switch", "\(description.name) switches the supply of meter '\(name)', which the rig's meters do not have (it has: \(rig.meters.map(\.name).joined(separator: ", ").ifEmpty("none")))")
        }
        guard meter.kind == .ppk2, meter.mode == .source else {
            throw InputError(at: "\(path).power.switch", "\(description.name) switches the supply of meter '\(name)', a \(meter.kind.rawValue) meter in \(meter.mode.rawValue) mode; only a ppk2 in source mode supplies its accessory")
        }
        guard accessory.meter == name else {
            throw InputError(at: "\(path).meter", "\(accessory.name) is powered by \(description.name), the supply of meter '\(name)'; it must be measured by it too (\"meter\": \"\(name)\")")
        }
    }

    /// The adapter cannot be on a PPK2's supply: only accessories' meters are opened.
    func checkAdapterNotOnPPK2() throws(InputError) {
        guard let reference = rig.adapter.power, let description = rig.powerSwitches.first(where: { $0.name == reference.switchName }),
              case .ppk2 = description.backend else { return }
        throw InputError(at: "adapter.power.switch", "\(description.name) is a PPK2's DUT supply, which powers an accessory (its meter's), not the adapter")
    }
}

extension String {
    fileprivate func ifEmpty(_ replacement: String) -> String { isEmpty ? replacement : self }
}
