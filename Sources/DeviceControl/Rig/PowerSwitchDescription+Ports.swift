extension PowerSwitchDescription {
    /// The same switch driving only `port`: what powers one accessory (its rig `power.port`). Nil when
    /// `port` is not one of its `ports`. A one-outlet switch (port 1) is returned as it is.
    /// For a hub, devices named to verify by a location behind another of its ports are left out
    /// (they do not leave when this port is cut); name devices by location when one switch powers several.
    package func restricted(toPort port: Int) -> PowerSwitchDescription? {
        guard ports.contains(port) else { return nil }
        var copy = self
        switch backend {
        case .usbHub(let hub, _, let method, let force, let repeatOff):
            copy.backend = .usbHub(hub: hub, ports: [port], method: method, force: force, repeatOff: repeatOff)
            copy.verify.devices = verify.devices.filter { expectation in
                guard let location = expectation.location else { return true }
                return location.ports.count > hub.ports.count && location.bus == hub.bus
                    && Array(location.ports.prefix(hub.ports.count + 1)) == hub.ports + [port]
            }
        case .ykush(let serial, _):
            copy.backend = .ykush(serial: serial, ports: [port])
        case .relay(let vendor, let serial, _):
            copy.backend = .relay(vendor: vendor, serial: serial, ports: [port])
        case .command, .process, .labgrid, .ppk2:
            return self
        }
        return copy
    }
}
