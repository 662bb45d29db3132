/// Makes the switch a description asks for: the backend's actuator wrapped in verification.
public enum PowerSwitchFactory {
    /// The actuator alone (for `status`, which switches nothing).
    package static func actuator(for description: PowerSwitchDescription, sysfs: SysfsRoot = SysfsRoot()) throws -> any PowerActuator {
        switch description.backend {
        case .command(let on, let off, let status, let statePattern, let deadline):
            return try CommandActuator(name: description.name, on: on, off: off, status: status, statePattern: statePattern, deadline: deadline)
        case .usbHub(let hub, let ports, let method, let force, let repeatOff):
            return try HubPortActuator(hub: hub, ports: ports, method: method, force: force, repeatOff: repeatOff, sysfs: sysfs)
        case .ykush(let serial, let ports):
            return try YKUSHActuator(serial: serial, ports: ports, sysfs: sysfs)
        case .relay(let vendor, let serial, let ports):
            return try USBRelayActuator(vendor: vendor, serial: serial, relays: ports, sysfs: sysfs)
        case .process(let argv, let environment, let readyPattern, let readyDeadline, let stopDeadline, let pidFile):
            return try ProcessActuator(name: description.name, argv: argv, environment: environment, readyPattern: readyPattern,
                                       readyDeadline: readyDeadline, stopDeadline: stopDeadline, pidFile: pidFile)
        case .labgrid(let place, let resource, let coordinator):
            return LabgridPowerActuator(name: description.name, place: LabgridPlace(place: place, coordinator: coordinator), resource: resource)
        case .ppk2(let meter):
            throw PowerSwitchError(.unsupported, "\(description.name) switches the supply of PPK2 \(meter), which only hil run (or a test bench) opens, streaming for the run; switch it there")
        }
    }

    /// A verified switch; `probe` defaults to libusb + sysfs.
    public static func makeSwitch(_ description: PowerSwitchDescription, sysfs: SysfsRoot = SysfsRoot(),
                                  probe: (any USBPresenceProbe)? = nil) throws -> any PowerSwitch {
        VerifiedPowerSwitch(actuator: try actuator(for: description, sysfs: sysfs), probe: probe ?? SystemUSBProbe(sysfs: sysfs),
                            expecting: description.verify.devices, offDeadline: description.verify.offDeadline,
                            onDeadline: description.verify.onDeadline)
    }
}
