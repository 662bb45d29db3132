extension PowerSwitchDescription.Backend {
    /// The ports a multi-port switch drives (a hub's, a YKUSH's, a relay board's); nil for kinds that
    /// switch one outlet (a command, a process).
    public var ports: [Int]? {
        switch self {
        case .usbHub(_, let ports, _, _, _), .ykush(_, let ports), .relay(_, _, let ports): return ports
        case .command, .process: return nil
        }
    }
}

extension PowerSwitchDescription {
    /// The same switch driving only `port`: what powers one accessory (its rig `power.port`). Nil when
    /// the switch has ports and `port` is not one of them. A one-outlet switch is returned as it is.
    /// For a hub, devices named to verify by a location behind another of its ports are left out
    /// (they do not leave when this port is cut); name devices by location when one switch powers several.
    public func restricted(toPort port: Int) -> PowerSwitchDescription? {
        var copy = self
        switch backend {
        case .usbHub(let hub, let ports, let method, let force, let repeatOff):
            guard ports.contains(port) else { return nil }
            copy.backend = .usbHub(hub: hub, ports: [port], method: method, force: force, repeatOff: repeatOff)
            copy.verify.devices = verify.devices.filter { expectation in
                guard let location = expectation.location else { return true }
                return location.ports.count > hub.ports.count && location.bus == hub.bus
                    && Array(location.ports.prefix(hub.ports.count + 1)) == hub.ports + [port]
            }
        case .ykush(let serial, let ports):
            guard ports.contains(port) else { return nil }
            copy.backend = .ykush(serial: serial, ports: [port])
        case .relay(let vendor, let serial, let ports):
            guard ports.contains(port) else { return nil }
            copy.backend = .relay(vendor: vendor, serial: serial, ports: [port])
        case .command, .process:
            return self
        }
        return copy
    }
}
