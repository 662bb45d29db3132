/// One entry of a rig file's `"powerSwitches"` array:
///
///     {"name": "pdu-outlet-3", "kind": "command", "on": ["pdu", "on", "3"], "off": ["pdu", "off", "3"],
///      "status": ["pdu", "status", "3"], "statePattern": {"on": "ON", "off": "OFF"}, "deadlineSeconds": 10,
///      "verify": {"devices": ["2fe3:000b"], "deadlineSeconds": 3}}
///
/// Kinds and their fields: `command` (on, off, status, statePattern, deadlineSeconds), `usb-hub` (hub,
/// ports, method, force, repeat), `ykush` (serial, ports), `relay` (vendor, serial, ports), `process`
/// (argv, environment, readyPattern, readyDeadlineSeconds, stopDeadlineSeconds, pidFile), `labgrid` (place,
/// resource, coordinator). `port: N` may
/// stand for `ports: [N]`. Unknown fields are errors with a did-you-mean, so a typo is not silently
/// ignored; `init(reading:)` errors name the field path and the value as written
/// (`powerSwitches[1].ports[0]: expected a port number from 1 to 255, found -2`).
public struct PowerSwitchDescription: Sendable, Equatable {
    package enum Kind: String, Sendable, Equatable, CaseIterable {
        case command
        case usbHub = "usb-hub"
        case ykush
        case relay
        case process
        /// A labgrid place's power driver (`labgrid-client -p PLACE power …`): every PDU, YKUSH and uhubctl
        /// backend labgrid has.
        case labgrid
        /// A PPK2 in source mode (a rig meter) switching the supply it gives its device under test.
        case ppk2
    }

    package enum Backend: Sendable, Equatable {
        case command(on: [String], off: [String], status: [String]?, statePattern: StatePattern?, deadline: Duration)
        case usbHub(hub: USBLocation, ports: [Int], method: HubSwitchMethod, force: Bool, repeatOff: Int)
        case ykush(serial: String?, ports: [Int])
        case relay(vendor: String, serial: String?, ports: [Int])
        case process(argv: [String], environment: [String: String]?, readyPattern: String?,
                     readyDeadline: Duration, stopDeadline: Duration, pidFile: String?)
        /// `place` on `coordinator` (nil: the rig's labgrid coordinator, else `LG_COORDINATOR`), `resource` naming
        /// the power driver where the place has several.
        case labgrid(place: String, resource: String?, coordinator: String?)
        /// The rig meter (`meters`, a ppk2 in source mode) whose DUT supply this switch turns.
        case ppk2(meter: String)

        package var kind: Kind {
            switch self {
            case .command: return .command
            case .usbHub: return .usbHub
            case .ykush: return .ykush
            case .relay: return .relay
            case .process: return .process
            case .labgrid: return .labgrid
            case .ppk2: return .ppk2
            }
        }
    }

    /// `"verify": {"devices": [...], "deadlineSeconds": 3, "onDeadlineSeconds": 10}`, or `"verify": "none"`.
    package struct Verify: Sendable, Equatable {
        package var devices: [DeviceExpectation]
        /// `"verify": "none"`: the rig accepts that this switch's transitions cannot be seen to happen
        /// (nothing downstream enumerates). Without it the harness treats an unverified transition as a
        /// bench failure, so a dead outlet is never reported as the accessory's fault.
        package var acceptsUnverified: Bool
        /// How long devices get to leave after off.
        package var offDeadline: Duration
        /// How long devices get to come back and enumerate after on.
        package var onDeadline: Duration
        package init(devices: [DeviceExpectation] = [], offDeadline: Duration = .seconds(3), onDeadline: Duration = .seconds(10),
                    acceptsUnverified: Bool = false) {
            self.devices = devices
            self.acceptsUnverified = acceptsUnverified
            self.offDeadline = offDeadline
            self.onDeadline = onDeadline
        }
    }

    package var name: String
    package var backend: Backend
    package var verify: Verify

    package var kind: Kind { backend.kind }

    /// The ports a rig's `power.port` may name on this switch: its `ports` for a hub, YKUSH or relay; a
    /// command or process switch switches one thing, port 1.
    package var ports: [Int] {
        switch backend {
        case .usbHub(_, let ports, _, _, _), .ykush(_, let ports), .relay(_, _, let ports): return ports
        case .command, .process, .labgrid, .ppk2: return [1]
        }
    }

    package init(name: String, backend: Backend, verify: Verify = Verify()) {
        self.name = name
        self.backend = backend
        self.verify = verify
    }
}
