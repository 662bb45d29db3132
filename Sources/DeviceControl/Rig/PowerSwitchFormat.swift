import StrictJSON

/// The power switches' part of the rig format, declared once: a `powerSwitches` entry with the keys of each
/// kind, its command lines and its `verify`. `PowerSwitchDescription(reading:)` reads through these fields;
/// the rig's schema and reference (Rigs) are written from them.
package enum PowerSwitchFormat {
    /// The reader compiles a pattern, as a schema cannot.
    static let compiled = ReaderNote("The reader compiles the pattern (NSRegularExpression, ICU syntax); a schema cannot.", refusals: ["a valid regular expression"])

    /// A labgrid coordinator address, HOST:PORT with a port from 1 to 65535.
    package static func coordinatorRule(description: String) -> JSONRule {
        JSONRule.string(pattern: #"^\S*[^\s:]\S*:([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])$"#,
                        description: description)
    }

    /// `powerSwitch`: one entry of a rig's `powerSwitches`.
    package enum Switch {
        static let name = JSONField("name", JSONRule.nonEmptyString(pattern: "^\\S+$", description: "The switch's name, without spaces: what a power.switch names, and `hil power --rig RIG NAME` switches. Required."), required: true)
        static let kind = JSONField("kind", JSONRule.string(choices: PowerSwitchDescription.Kind.allCases.map(\.rawValue), description: "What the switch is: command (any command line, e.g. a network PDU), usb-hub (per-port power of a USB hub), ykush (a Yepkit YKUSH board), relay (a dcttech USB HID relay board), process (a process started and killed, for an emulated accessory), labgrid (a labgrid place's power driver: any PDU, YKUSH or uhubctl hub labgrid drives), ppk2 (a PPK2 in source mode switching the supply it gives its accessory). Required."), required: true)
        static let verify = JSONField("verify", JSONRule(.anyOf([JSONRule.string(constant: "none"), JSONRule(.definition(Verify.definition))]), description: "How its transitions are verified: an object naming the devices that must leave at off and come back at on, or \"none\" when nothing can verify them and the rig accepts that (recorded as unverified). Default: an object without devices (a hub port watches what the USB topology shows behind it; otherwise a transition nothing can see is unverified, which a run treats as a bench failure)."))
        static let on = JSONField("on", Command.definition.reference("command: the command line that switches on, as an array of strings (the program, then its arguments; no shell is used). Required for kind command."))
        static let off = JSONField("off", Command.definition.reference("command: the command line that switches off (an array of strings; no shell). Required for kind command."))
        static let status = JSONField("status", Command.definition.reference("command: a command line that prints the state, read with statePattern (an array of strings; no shell). Default: none."))
        static let statePattern = JSONField("statePattern", JSONRule(.object(StatePattern.shape), description: "command: regular expressions applied to the status command's output; the state is on or off when exactly one matches.",
                                                              notes: [compiled]))
        static let deadlineSeconds = JSONField.number("deadlineSeconds", 0.001...600, default: 10, description: "command: how long each command may run before it is killed, in seconds (0.001 to 600). Default 10.")
        static let hub = JSONField("hub", JSONRule.nonEmptyString(pattern: "^(usb(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]?)|(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]?)(-(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]?)(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]?)){0,6})?)$", description: "usb-hub: the hub's location, bus-port.port... as `hil usb` prints it (1-1.4), or a root hub's bus number (3, or usb3). Required for kind usb-hub.", examples: ["1-1.4", "3"]))
        static let ports = JSONField("ports", JSONRule.array(of: JSONRule(.integer(1...255), description: "A port number, 1 to 255."), minItems: 1, unique: true, description: "usb-hub, ykush, relay: the ports (relays) this switch may turn, each once; an accessory's power.port names one of them. Give ports or port, not both."))
        static let port = JSONField.integer("port", 1...255, description: "usb-hub, ykush, relay: the one port this switch turns, 1 to 255 (short for ports: [N]). Give ports or port, not both.")
        static let method = JSONField("method", JSONRule.string(choices: HubSwitchMethod.allCases.map(\.rawValue), description: "usb-hub: how a port is switched: auto (the port's sysfs disable file on Linux 6.0 and later where it exists, hub class requests otherwise), sysfs (only the disable file), hub-request (only Set/ClearPortFeature(PORT_POWER) through libusb; the kernel may power the port back). Default auto.", default: "auto"))
        static let force = JSONField.boolean("force", default: false, description: "usb-hub: switch a ganged hub, or one that declares no per-port power switching, anyway (verification still checks). Default false.")
        static let `repeat` = JSONField.integer("repeat", 1...10, default: 1, description: "usb-hub: ClearPortFeature requests per off, 20 ms apart, 1 to 10 (some hubs need more than one). Default 1.")
        static let serial = JSONField("serial", JSONRule.string(description: "ykush, relay: the board's serial (a relay board's is up to 5 characters); omit it when there is only one board. Default: the only board."))
        static let vendor = JSONField("vendor", JSONRule.string(choices: USBRelayActuator.supportedVendors, description: "relay: the relay board design: dcttech (USBRelay1/2/4/8, 16c0:05df). Required for kind relay."))
        static let argv = JSONField("argv", Command.definition.reference("process: the command line that starts the emulated accessory, in its own process group (an array of strings; no shell). Required for kind process."))
        static let environment = JSONField("environment", JSONRule(.object(JSONShape("environment", [], anyKey: JSONRule.string(allowEmpty: true, description: "The variable's value (may be empty)."))),
                                                            description: "process: environment variables added to the process's environment, name to value. Default: none.", notes: [ReaderNote("Any variable name is accepted, so this one object allows any key.")]))
        static let readyPattern = JSONField("readyPattern", JSONRule.string(format: "regex", description: "process: a regular expression (ICU syntax) the process prints (standard output or error) once it is ready; on waits for it. Default: ready as soon as it started.", notes: [compiled]))
        static let readyDeadlineSeconds = JSONField.number("readyDeadlineSeconds", 0.001...600, default: 10, description: "process: how long on waits for readyPattern, in seconds (0.001 to 600). Default 10.")
        static let stopDeadlineSeconds = JSONField.number("stopDeadlineSeconds", 0.001...600, default: 5, description: "process: how long off waits after SIGTERM before SIGKILL, in seconds (0.001 to 600). Default 5.")
        static let pidFile = JSONField("pidFile", JSONRule.string(description: "process: a file the process's ID is written to, so a later `hil power` (another process) can stop it. Default: none."))
        static let place = JSONField("place", JSONRule.string(description: "labgrid: the place whose power driver switches (labgrid-client -p PLACE power on|off). Required for kind labgrid."))
        static let resource = JSONField("resource", JSONRule.string(description: "labgrid: the power resource's name where the place has several (labgrid-client power --name). Default: the place's only one."))
        static let coordinator = JSONField("coordinator", coordinatorRule(description: "labgrid: HOST:PORT of the coordinator. Default: the rig's labgrid.coordinator, else LG_COORDINATOR, else 127.0.0.1:20408."))
        static let meter = JSONField("meter", JSONRule.string(description: "ppk2: the rig meter (meters) whose DUT supply this switch turns, a ppk2 in source mode; the switch sends DEVICE_RUNNING_SET on the stream hil run keeps and verifies by the current it measures (off: below 0.5 µA within 1 s). Required for kind ppk2."))
        package static let shape = JSONShape("powerSwitch", description: "One power switch. Its kind says which other keys it may have: command (on, off, status, statePattern, deadlineSeconds), usb-hub (hub, ports or port, method, force, repeat), ykush (serial, ports or port), relay (vendor, serial, ports or port), process (argv, environment, readyPattern, readyDeadlineSeconds, stopDeadlineSeconds, pidFile), labgrid (place, resource, coordinator), ppk2 (meter); every kind may have verify.", [name, kind, verify, on, off, status, statePattern, deadlineSeconds, hub, ports, port, method, force, `repeat`, serial, vendor, argv, environment, readyPattern, readyDeadlineSeconds, stopDeadlineSeconds, pidFile, place, resource, coordinator, meter],
                                                   conditions: PowerSwitchDescription.Kind.allCases.map(condition), notes: [ReaderNote("Each kind's if/then lists the keys that kind may have (propertyNames), as the reader refuses a key of another kind.")])
        package static let definition = JSONDefinition(shape)

        /// The fields every kind may have.
        static let common = [name, kind, verify]
        /// The fields of each kind, the first ones required.
        static func fields(of kind: PowerSwitchDescription.Kind) -> (required: [JSONField], optional: [JSONField]) {
            switch kind {
            case .command: return ([on, off], [status, statePattern, deadlineSeconds])
            case .usbHub: return ([hub], [ports, port, method, force, `repeat`])
            case .ykush: return ([], [serial, ports, port])
            case .relay: return ([vendor], [serial, ports, port])
            case .process: return ([argv], [environment, readyPattern, readyDeadlineSeconds, stopDeadlineSeconds, pidFile])
            case .labgrid: return ([place], [resource, coordinator])
            case .ppk2: return ([meter], [])
            }
        }

        /// The keys a switch of `kind` may have.
        static func keys(of kind: PowerSwitchDescription.Kind) -> [String] {
            let own = fields(of: kind)
            return (common + own.required + own.optional).map(\.key)
        }

        /// `if kind is KIND then` its required keys, only its keys, and `portsOrPort` for a switch of ports.
        static func condition(_ kind: PowerSwitchDescription.Kind) -> JSONShape.Condition {
            let own = fields(of: kind)
            let hasPorts = own.optional.contains { $0.key == ports.key }
            return JSONShape.Condition(when: self.kind.key, is: kind.rawValue, requires: own.required.map(\.key), onlyKeys: keys(of: kind),
                                       also: hasPorts ? [PortsOrPort.definition] : [])
        }
    }

    /// `statePattern`: a command switch's regular expressions for its status output.
    package enum StatePattern {
        static let on = JSONField("on", JSONRule.string(format: "regex", description: "A regular expression (ICU syntax) that matches the status output when the switch is on. Required."), required: true, expected: "a regular expression")
        static let off = JSONField("off", JSONRule.string(format: "regex", description: "A regular expression (ICU syntax) that matches the status output when the switch is off. Required."), required: true, expected: "a regular expression")
        package static let shape = JSONShape("statePattern", [on, off])
    }

    /// `commandLine`.
    package enum Command {
        package static let definition = JSONDefinition("commandLine", JSONRule(
            .array(items: JSONRule.string(allowEmpty: true, description: "An argument (may be empty)."),
                   tuple: [JSONRule.string(description: "The program: a path, or a name looked up on PATH.")], minItems: 1, unique: false),
            description: "A command line as an array of strings: the program, then its arguments (no shell is used)."))
    }

    /// `portsOrPort`.
    package enum PortsOrPort {
        package static let definition = JSONDefinition("portsOrPort", JSONRule(
            .keywords, description: "A hub, YKUSH or relay switch names its ports with ports or port, not both.",
            extra: [.init("oneOf", .array([.object([.init("required", .strings(["ports"]))]), .object([.init("required", .strings(["port"]))])]))]))
    }

    /// `verify`.
    package enum Verify {
        static let devices = JSONField("devices", JSONRule.array(of: JSONRule.string(pattern: "^((usb(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]?)|(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]?)(-(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]?)(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]?)){0,6})?)=[0-9A-Fa-f]{4}:[0-9A-Fa-f]{4}(/[\\s\\S]+)?|[0-9A-Fa-f]{4}:[0-9A-Fa-f]{4}(/[^=]+)?|(usb(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]?)|(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]?)(-(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]?)(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]?)){0,6})?))$", description: "A USB device: VID:PID, VID:PID/SERIAL, a location like 1-1.4.2, or LOCATION=VID:PID (that device at that location).", examples: ["2fe3:000b", "2fe3:000b/HILDONGLE01", "1-1.4.2", "1-1.4.2=10c4:ea60"]), description: "The devices that must leave the USB tree at off and come back at on. When one hub powers several accessories, name them by location. Default: the devices the topology shows behind the port."))
        static let deadlineSeconds = JSONField.number("deadlineSeconds", 0.001...120, default: 3, description: "How long the devices get to leave after off, in seconds (0.001 to 120). Default 3.")
        static let onDeadlineSeconds = JSONField.number("onDeadlineSeconds", 0.001...120, default: 10, description: "How long the devices get to come back and enumerate after on, in seconds (0.001 to 120). Default 10, or deadlineSeconds when that is larger.")
        package static let shape = JSONShape("verify", [devices, deadlineSeconds, onDeadlineSeconds])
        package static let definition = JSONDefinition(shape)
    }
}
