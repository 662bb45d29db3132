import DeviceControl
import StrictJSON
import Simulation

/// The rig format, declared once: each object of a rig file and each of its fields — key, type, range or
/// pattern or enum, required or default, description, and the reader's own checks (`ReaderNote`). The rig
/// reader (`Rig(reading:)` and the readers it calls) reads through these fields; `RigSchema` writes them as
/// the JSON Schema (`hil rig schema`, rigs/rig.schema.json) and as the reference (`hil rig doc`,
/// docs/rig-reference.md). The power switches' part is `PowerSwitchFormat` (DeviceControl), the simulated
/// bench's `SimulationFormat` (Simulation).
package enum RigFormatTable {
    /// `root`.
    package enum Root {
        static let schema = JSONField("$schema", JSONRule.string(allowEmpty: true, description: "The schema editors check this file against: \"./rig.schema.json\" beside BluetoothHIL's rigs, or a path or URL to the output of `hil rig schema`. hil ignores its value. Only the top level may have it."))
        static let name = JSONField("name", JSONRule.string(description: "The rig's name. It names the rig's lock (one run at a time per rig) and the default results directory. Required."), required: true,
                                   expected: "the rig's name (it names the rig's lock)")
        static let description = JSONField("description", JSONRule.string(allowEmpty: true, description: "What this bench is, for people; may be empty. Default: none."))
        static let adapter = JSONField("adapter", Adapter.definition.reference("The central adapter: the controller the suites drive. Required."), required: true)
        static let powerSwitches = JSONField("powerSwitches", JSONRule.array(of: JSONRule(.definition(PowerSwitchFormat.Switch.definition)), description: "The hardware or process power switches of the bench, each verified against the USB tree unless its verify says \"none\" (docs/power-switches.md). Default: none.", notes: [ReaderNote("The reader also checks that no two switches share a name, and that none is named as simulation.powerSwitch is.", refusals: ["is used twice", "is also the name of"])]))
        static let meters = JSONField("meters", JSONRule.array(of: JSONRule(.definition(Meter.definition)), description: "The power meters of the bench, each measuring the supply current of the accessory that names it (docs/power-meters.md). Default: none.", notes: [ReaderNote("The reader also checks that no two meters share a name.", refusals: ["is used twice"])]))
        static let simulation = JSONField("simulation", SimulationFormat.Simulation.definition.reference("The simulated bench: controllers on one simulated air, its power switch and its timing. Needed when the adapter is sim:NAME or an accessory is simulated. Default: none (a real bench)."))
        static let accessories = JSONField("accessories", JSONRule.array(of: JSONRule(.definition(Accessory.definition)), description: "The accessories under test: how to recognise each, what powers it, the services discovery must find. Required (may be empty).", notes: [ReaderNote("The reader also checks that accessory names are unique.", refusals: ["is used twice"])]), required: true)
        static let budgets = JSONField("budgets", Budgets.definition.reference("Timing budgets the standard suites hold the accessories to, and loop settings. Every field optional; a missing one keeps its default."))
        static let remoteLossReasons = JSONField("remoteLossReasons", StatusList.definition.reference("HCI status codes that count as the accessory's link being lost when its power is cut. Default [\"0x08\"] (Connection Timeout, what a real radio reports); an emulator may use another (Rootcanal: 0x15)."))
        static let localDisconnectReasons = JSONField("localDisconnectReasons", StatusList.definition.reference("HCI status codes the central may see for its own Disconnect. Default [\"0x16\"] (Connection Terminated By Local Host); btvirt echoes the reason it was sent (0x13)."))
        static let reportsLinkLoss = JSONField.boolean("reportsLinkLoss", default: true, description: "Whether the central's controller reports a lost peer at all. false (btvirt) skips the suites that need a link loss, with that reason. Default true.")
        static let peerSeesAdapterReset = JSONField.boolean("peerSeesAdapterReset", description: "Whether an accessory learns that the central's controller was reset (its link times out). false (Rootcanal 1.10) skips the adapter-reset suite, with that reason. Default: the value of reportsLinkLoss.")
        static let labgrid = JSONField("labgrid", JSONRule(.object(Labgrid.shape), description: "The labgrid place this bench is. hil run acquires it from the coordinator before the first test (with --wait, waits for it) and releases it on every exit, instead of this host's rig lock; results name the place and its holder. A switch of kind labgrid without a coordinator of its own uses this one."))
        package static let shape = JSONShape("rig", description: "A bench for hil: the adapter (central controller), the power switches, the accessories and how to recognise them, the timing budgets the standard suites hold them to, and for a simulated bench its controllers and accessory firmware.", [schema, name, description, adapter, powerSwitches, meters, simulation, accessories, budgets, remoteLossReasons, localDisconnectReasons, reportsLinkLoss, peerSeesAdapterReset, labgrid])
        package static let definition = JSONDefinition(shape)
    }

    /// `labgrid`: the labgrid place the bench is.
    package enum Labgrid {
        static let place = JSONField("place", JSONRule.string(description: "The place's name (labgrid-client -p PLACE). Required."), required: true, expected: "the name of the labgrid place this bench is")
        static let coordinator = JSONField("coordinator", PowerSwitchFormat.coordinatorRule(description: "HOST:PORT of the labgrid coordinator. Default: LG_COORDINATOR as labgrid's own tools read it, else labgrid's 127.0.0.1:20408."))
        package static let shape = JSONShape("labgrid", [place, coordinator])
    }

    /// `energy`: an accessory's energy budgets.
    package enum Energy {
        static let idleAfterDisconnect = JSONField("idleAfterDisconnect", JSONRule(.object(Idle.shape), description: "After a disconnect it must settle: from after_ms past the disconnect, over window_ms, its average current at most avg_uA_max (SleepsAfterDisconnect). Default: not checked."))
        static let advertisingEvent = JSONField("advertisingEvent", JSONRule(.object(Advertising.shape), description: "The charge of an advertising event, measured over window_ms centred on an advertising report the central hears, at most charge_uC_max (AdvertisingEventCharge). Default: not checked."))
        package static let shape = JSONShape("energy", [idleAfterDisconnect, advertisingEvent])
        package static let definition = JSONDefinition(shape)

        /// `idleAfterDisconnect`.
        package enum Idle {
            static let maximum = JSONField("avg_uA_max", JSONRule(.number(minimum: 0, exclusive: true, maximum: 1_000_000), description: "The highest average current allowed, in µA (above 0, at most 1000000). Required."), required: true, expected: "a current in µA above 0 and at most 1000000")
            static let after = JSONField.number("after_ms", 0...600_000, default: 500, expected: "a number of milliseconds from 0 to 600000", description: "How long after the disconnect the window starts, in milliseconds (0 to 600000). Default 500.")
            static let window = JSONField.number("window_ms", above: 0, atMost: 600_000, default: 1000, expected: "a number of milliseconds above 0 and at most 600000", description: "How long the average is taken over, in milliseconds. Default 1000.")
            package static let shape = JSONShape("idleAfterDisconnect", [maximum, after, window])
        }

        /// `advertisingEvent`.
        package enum Advertising {
            static let maximum = JSONField("charge_uC_max", JSONRule(.number(minimum: 0, exclusive: true, maximum: 1_000_000), description: "The highest charge allowed for one advertising event, in µC (above 0, at most 1000000). Required."), required: true, expected: "a charge in µC above 0 and at most 1000000")
            static let window = JSONField.number("window_ms", above: 0, atMost: 1000, default: 10, expected: "a number of milliseconds above 0 and at most 1000", description: "The window centred on an advertising report, in milliseconds: long enough for one event, shorter than the advertising interval. Default 10.")
            package static let shape = JSONShape("advertisingEventBudget", [maximum, window])
        }
    }

    /// `meter`: a power meter of the bench.
    package enum Meter {
        static let name = JSONField("name", JSONRule.nonEmptyString(pattern: "^\\S+$", description: "The meter's name, without spaces: what an accessory's meter names. Required."), required: true, expected: "a meter name")
        static let kind = JSONField("kind", JSONRule.string(choices: RigMeter.Kind.allCases.map(\.rawValue), description: "simulated: it measures a simulated accessory's current model (its simulated.current) on the world's clock, integrating each window exactly; ppk2: a Nordic Power Profiler Kit II on a serial port; command: any program that records a trace to CSV (a Joulescope's or an Otii's own tools), started for each case and stopped with SIGINT. Required."), required: true, expected: #""simulated", "ppk2" or "command""#)
        static let command = JSONField("command", PowerSwitchFormat.Command.definition.reference("command: the program that records the accessory's supply current, as an array of strings (no shell); an argument holding {csv} gets the file it is to write (time_s or unix_s, then current_uA: docs/power-meters.md). Started when a case opens — its first sample awaited 10 s — and stopped when it ends: SIGINT, then SIGTERM after 5 s, then SIGKILL. Required for command."))
        static let port = JSONField("port", JSONRule.string(description: "A ppk2's serial port: a tty (/dev/ttyACM0, /dev/serial/by-id/…) or usb:1915:c00a[/SERIAL], found through sysfs. Required for ppk2; a simulated meter has none.", examples: ["usb:1915:c00a/C4F1D3A2B1E0", "/dev/ttyACM0"]), expected: "a serial port like /dev/ttyACM0 or usb:1915:c00a/SERIAL")
        static let mode = JSONField("mode", JSONRule.string(choices: RigMeter.Mode.allCases.map(\.rawValue), description: "How a ppk2 is wired: source (it supplies the accessory at voltage_mV) or ampere (in series with the accessory's own supply). Default ampere.", default: RigMeter.Mode.ampere.rawValue), expected: #""source" or "ampere""#)
        static let voltage = JSONField.integer("voltage_mV", 800...5000, default: 3000, expected: "a number of millivolts from 800 to 5000", description: "The supply voltage in mV (800 to 5000, a PPK2's range): what a ppk2 in source mode supplies, and what charge becomes energy at. Default 3000.")
        package static let shape = JSONShape("meter", [name, kind, port, mode, voltage, command], conditions: [
            JSONShape.Condition(when: "kind", is: RigMeter.Kind.ppk2.rawValue, requires: ["port"], onlyKeys: ["name", "kind", "port", "mode", "voltage_mV"]),
            JSONShape.Condition(when: "kind", is: RigMeter.Kind.simulated.rawValue, onlyKeys: ["name", "kind", "voltage_mV"]),
            JSONShape.Condition(when: "kind", is: RigMeter.Kind.command.rawValue, requires: ["command"], onlyKeys: ["name", "kind", "command", "voltage_mV"]),
        ])
        package static let definition = JSONDefinition(shape)
    }

    /// `adapter`.
    package enum Adapter {
        static let moniker = JSONField("moniker", TransportMoniker.definition.reference("The adapter's transport moniker. Required."), required: true)
        static let power = JSONField("power", PowerReference.definition.reference("The switch and port that power the adapter itself: the recovery ladder's last rung and the AdapterPowerCycle suite cut it. Default: none (that rung and suite are skipped)."))
        package static let shape = JSONShape("adapter", [moniker, power], notes: [ReaderNote("The reader also checks that a sim:NAME moniker names a controller of simulation.controllers (and that the rig has a simulation block), and that this controller runs no accessory.", refusals: ["no simulated controller named", "but the rig has no simulation block", "is already used by"])])
        package static let definition = JSONDefinition(shape)
    }

    /// `transportMoniker`.
    package enum TransportMoniker {
        package static let definition = JSONDefinition("transportMoniker", JSONRule.string(
            pattern: #"^(unix:[\s\S]+|usb:[\s\S]+|sim:[\s\S]+|hci-socket:\+?[0-9]{1,18}|serial:[^,]+(,(rtscts|\+?0*[1-9][0-9]{0,17}))*|tcp-client:(?!\[\]:[^:]*$)[\s\S]+:\+?0*([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))$"#,
            description: "A controller, named as Bumble users write it: unix:PATH, tcp-client:HOST:PORT, serial:DEVICE[,BAUD][,rtscts], usb:INDEX, usb:VID:PID[/SERIAL], usb:BUS-PORT.PORT, hci-socket:N, or sim:NAME (a controller of this rig's simulation).",
            examples: ["sim:central", "usb:0", "usb:2fe3:000b", "hci-socket:0", "unix:/tmp/bt-server-le", "tcp-client:127.0.0.1:6402", "serial:/dev/ttyACM0,1000000,rtscts"]))
    }

    /// `powerReference`.
    package enum PowerReference {
        static let `switch` = JSONField("switch", JSONRule.string(description: "The name of a power switch of this rig: a powerSwitches entry, or simulation.powerSwitch. Required."), required: true,
                                     expected: "the name of a power switch of this rig")
        static let port = JSONField.integer("port", 1...255, required: true, expected: "a port number from 1 to 255", description: "The switch port, 1 to 255: one of the switch's ports (a command or process switch has one, port 1). Required.")
        package static let shape = JSONShape("powerReference", [`switch`, port], notes: [ReaderNote("The reader also checks that the switch exists, that the port is one of its ports, that no two users share a switch port, and that a simulated switch's port feeds the controller its user runs on.", refusals: ["no power switch named", "is not a port of switch", "already powers", "feeds controller", "which powers simulated controllers only"])])
        package static let definition = JSONDefinition(shape)
    }

    /// `statusList`.
    package enum StatusList {
        package static let definition = JSONDefinition("statusList", JSONRule.array(
            of: JSONRule.string(pattern: #"^(0[xX])?[0-9A-Fa-f]{1,2}$"#, description: "An HCI status code (Core v5.4 Vol 1 Part F), hexadecimal: \"0x08\" or \"08\".", examples: ["0x08", "0x13", "0x15", "0x16"]),
            minItems: 1, description: "A non-empty array of HCI status codes like \"0x08\"."))
    }

    /// `accessory`.
    package enum Accessory {
        static let name = JSONField("name", JSONRule.string(description: "The accessory's name in results, filters and `hil sim power`; unique in the rig. Required."), required: true, expected: "the accessory's name")
        static let match = JSONField("match", Match.definition.reference("How to recognise it over the air: at least one of name, address, service, manufacturer; all given must match. Required."), required: true)
        static let power = JSONField("power", PowerReference.definition.reference("The switch and port that power it. Default: none (the suites that cut its power are skipped)."))
        static let malicious = JSONField.boolean("malicious", default: false, description: "It misbehaves on purpose (a hostile firmware under test: truncated or oversized PDUs, responses nobody asked for, signaling garbage, SMP out of order): the MaliciousAccessory suite runs on the rig, and must fail it with the protocol violation named. Default false.")
        static let expectedServices = JSONField("expectedServices", JSONRule.array(of: JSONRule.string(pattern: "^((0[xX])?[0-9A-Fa-f]{4}|(0[xX])?[0-9A-Fa-f]{8}|[0-9A-Fa-f]{32}|[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})$", description: "A service UUID: 16-bit (\"180F\"), 32-bit or 128-bit.", examples: ["180F", "180D", "1809", "180A"]), description: "The GATT services discovery must find on it. Default: none."))
        static let simulated = JSONField("simulated", SimulationFormat.Accessory.definition.reference("Its firmware, when it is a simulated accessory running on a controller of this rig's simulation. Default: none (a real accessory)."))
        static let security = JSONField("security", Security.definition.reference("How it pairs and what it protects; the security suites run on accessories with a security block and are skipped elsewhere. A simulated accessory pairs as it says. Default: none."))
        static let link = JSONField("link", Link.definition.reference("What its link layer must reach: ATT MTU, data length, PHY, connection-parameter changes and sustained throughput; each link-layer suite runs on the accessories that declare its part and is skipped elsewhere. Default: none."))
        static let energy = JSONField("energy", Energy.definition.reference("Energy budgets its meter holds it to, each run by its energy suite (skipped where no accessory has a meter and the budget). Default: none."))
        static let meter = JSONField("meter", JSONRule.string(description: "The name of the meter (a meters entry) that measures its supply current. A simulated meter measures a simulated accessory with a current block. Default: none (its energy is not measured)."), expected: "the name of a meter of this rig")
        static let firmwareUpdate = JSONField("firmwareUpdate", FirmwareUpdate.definition.reference("It updates its firmware over MCUmgr SMP into MCUboot's slots, and how long its flash and MCUboot take: the FirmwareUpdateCampaign runs on it (on a simulated accessory its simulated dfu block says the same, and this block, when given, is what the campaign reads). Default: none."))
        package static let shape = JSONShape("accessory", [name, match, power, meter, energy, malicious, expectedServices, simulated, security, link, firmwareUpdate],
                                             notes: [ReaderNote("The reader also checks that meter names a meter of the rig that measures no other accessory, and that a simulated meter's accessory is simulated with a current block.", refusals: ["no meter named", "already measures", "current block"])])
        package static let definition = JSONDefinition(shape)
    }

    /// `match`.
    package enum Match {
        static let name = JSONField("name", JSONRule.string(description: "The advertised local name (complete or shortened)."))
        static let address = JSONField("address", JSONRule.string(pattern: "^([0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}|[0-9A-Fa-f]{2}(-[0-9A-Fa-f]{2}){5})$", description: "The advertiser's BD_ADDR: six pairs of hex digits separated by : (or all by -), most significant first.", examples: ["C0:48:49:4C:00:02"]))
        static let service = JSONField("service", JSONRule.string(pattern: "^((0[xX])?[0-9A-Fa-f]{4}|(0[xX])?[0-9A-Fa-f]{8}|[0-9A-Fa-f]{32}|[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})$", description: "A service UUID it advertises: 16-bit (\"180D\"), 32-bit or 128-bit.", examples: ["180D", "1809"]))
        static let manufacturer = JSONField.integer("manufacturer", 0...65535, expected: "a company identifier from 0 to 65535", description: "The Bluetooth SIG company identifier in its manufacturer-specific data, 0 to 65535 (89 = Nordic Semiconductor).")
        package static let shape = JSONShape("match", [name, address, service, manufacturer], minProperties: 1)
        package static let definition = JSONDefinition(shape)
    }

    /// `security`.
    package enum Security {
        static let pairing = JSONField("pairing", JSONRule.string(choices: ["just-works", "passkey", "numeric-comparison"], description: "The pairing method the accessory uses: just-works, passkey (it displays a fixed passkey the central enters) or numeric-comparison. Required."), required: true,
                                       expected: "a pairing method (just-works, passkey, numeric-comparison)")
        static let passkey = JSONField.integer("passkey", 0...999999, expected: "a six-digit passkey", description: "The six-digit passkey the accessory displays, 0 to 999999. Required for pairing passkey.")
        static let legacy = JSONField.boolean("legacy", default: false, description: "Whether it pairs with LE legacy pairing instead of LE Secure Connections. Default false.")
        static let protection = JSONField("protection", JSONRule.string(choices: ["encryption", "authentication"], description: "What its protected characteristic requires: encryption (any encrypted link) or authentication (a link encrypted with an authenticated key). Default authentication, or encryption for just-works (which gives an unauthenticated key, so it cannot ask for authentication)."))
        static let protectedCharacteristic = JSONField("protectedCharacteristic", JSONRule.string(pattern: "^((0[xX])?[0-9A-Fa-f]{4}|(0[xX])?[0-9A-Fa-f]{8}|[0-9A-Fa-f]{32}|[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})$", description: "The characteristic readable only on a secured link. Default HIL Protected Data, 5a5e0002-6b1c-4d9e-9a5f-000000000001.", default: "5a5e0002-6b1c-4d9e-9a5f-000000000001"))
        static let privacy = JSONField.boolean("privacy", default: false, description: "Whether it advertises with a new resolvable private address at every boot (the central resolves it with the bond's IRK). Default false.")
        package static let shape = JSONShape("security", [pairing, passkey, legacy, protection, protectedCharacteristic, privacy], conditions: [
            JSONShape.Condition(when: "pairing", is: "passkey", requires: ["passkey"]),
            JSONShape.Condition(when: "pairing", is: "just-works", properties: [("protection", .object([.init("const", .string("encryption"))]))]),
        ])
        package static let definition = JSONDefinition(shape)
    }

    /// `link`: what an accessory's link layer must reach.
    package enum Link {
        static let mtu = JSONField.integer("mtu", 23...517, expected: "an ATT_MTU from 23 to 517", description: "The ATT_MTU an Exchange MTU from the central must reach (23 to 517; the central offers this much). Default: not checked.")
        static let dataLength = JSONField.integer("dataLength", 27...251, expected: "a number of octets from 27 to 251", description: "The data length, in payload octets each way, an LE Set Data Length from the central must reach (27 to 251, Core v5.4 Vol 6 Part B §4.5.10). Default: not checked.")
        static let phy = JSONField("phy", JSONRule.string(choices: ["1M", "2M", "coded-s2", "coded-s8"], description: "The PHY an LE Set PHY from the central must reach, both ways: 1M, 2M, coded-s2 or coded-s8. Default: not checked."))
        static let updateMilliseconds = JSONField.number("updateMilliseconds", above: 0, atMost: 60000, default: 2000, expected: "a number of milliseconds above 0 and at most 60000", description: "How long each link update (MTU exchange, data length, PHY, connection parameters) may take, in milliseconds (above 0, at most 60000). Default 2000.")
        static let requestedIntervalMilliseconds = JSONField.number("requestedIntervalMilliseconds", 7.5...4000, expected: "a number of milliseconds from 7.5 to 4000", description: "The connection interval the accessory asks for itself after connecting (an L2CAP Connection Parameter Update Request or the link-layer procedure); the central must honour it within updateMilliseconds. Default: not checked.")
        static let centralIntervalMilliseconds = JSONField.number("centralIntervalMilliseconds", 7.5...4000, expected: "a number of milliseconds from 7.5 to 4000", description: "A connection interval the central changes to with LE Connection Update; the accessory must accept it (LE Connection Update Complete, success) within updateMilliseconds. Default: not checked.")
        static let notify = JSONField("notify", Stream.definition.reference("Sustained notifications from the accessory (in Bumble's bench packet format, on the bench speed service's RX unless characteristic names another): the floor they must reach. Default: not checked."))
        static let write = JSONField("write", Stream.definition.reference("Sustained Write Without Response to the accessory (Bumble's bench packet format, to the speed service's TX unless characteristic names another; the accessory acknowledges the last packet on RX): the floor they must reach. Default: not checked."))
        package static let shape = JSONShape("link", [mtu, dataLength, phy, updateMilliseconds, requestedIntervalMilliseconds, centralIntervalMilliseconds, notify, write])
        package static let definition = JSONDefinition(shape)
    }

    /// `stream`: a sustained stream and the floor it must reach.
    package enum Stream {
        static let characteristic = JSONField("characteristic", JSONRule.string(pattern: "^((0[xX])?[0-9A-Fa-f]{4}|(0[xX])?[0-9A-Fa-f]{8}|[0-9A-Fa-f]{32}|[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})$", description: "The characteristic that carries the stream. Default: the speed service's RX (notify) or TX (write) of Bumble's bench app."))
        static let seconds = JSONField.number("seconds", above: 0, atMost: 3600, default: 3, expected: "a number of seconds above 0 and at most 3600", description: "How long the stream runs, in seconds (above 0, at most 3600). Default 3.")
        static let floorBitsPerSecond = JSONField("floorBitsPerSecond", JSONRule(.number(minimum: 0, exclusive: true, maximum: 10_000_000), description: "The throughput the stream must reach, in bits per second of ATT values (above 0, at most 10000000). Required."),
                                                  required: true, expected: "a number of bits per second above 0 and at most 10000000")
        static let latencyP95Milliseconds = JSONField.number("latencyP95Milliseconds", above: 0, atMost: 60000, expected: "a number of milliseconds above 0 and at most 60000", description: "The 95th percentile of the packets' delay relative to the first packet must stay within this, in milliseconds (above 0, at most 60000). Default: not checked.")
        package static let shape = JSONShape("stream", [characteristic, seconds, floorBitsPerSecond, latencyP95Milliseconds])
        package static let definition = JSONDefinition(shape)
    }

    /// `budgets`.
    package enum Budgets {
        static let milliseconds = "a number of milliseconds above 0 and at most 3600000"
        static let advertisingAfterPowerOnMilliseconds = JSONField.number("advertisingAfterPowerOnMilliseconds", above: 0, atMost: 3600000, default: 3000, expected: milliseconds, description: "How soon an accessory must advertise after power-on, in milliseconds (above 0, at most 3600000 = one hour; fractions allowed). Default 3000.")
        static let connectMilliseconds = JSONField.number("connectMilliseconds", above: 0, atMost: 3600000, default: 3000, expected: milliseconds, description: "How long a connection may take, in milliseconds (above 0, at most 3600000 = one hour; fractions allowed). Default 3000.")
        static let discoveryMilliseconds = JSONField.number("discoveryMilliseconds", above: 0, atMost: 3600000, default: 5000, expected: milliseconds, description: "How long GATT discovery may take, in milliseconds (above 0, at most 3600000 = one hour; fractions allowed). Default 5000.")
        static let linkLossMarginMilliseconds = JSONField.number("linkLossMarginMilliseconds", above: 0, atMost: 3600000, default: 1000, expected: milliseconds, description: "Added to the supervision timeout when waiting for a link loss to be reported, in milliseconds (above 0, at most 3600000 = one hour; fractions allowed). Default 1000.")
        static let reconnectMilliseconds = JSONField.number("reconnectMilliseconds", above: 0, atMost: 3600000, default: 5000, expected: milliseconds, description: "How soon an accessory must be connectable again after its power comes back, in milliseconds (above 0, at most 3600000 = one hour; fractions allowed). Default 5000.")
        static let adapterResetMilliseconds = JSONField.number("adapterResetMilliseconds", above: 0, atMost: 3600000, default: 5000, expected: milliseconds, description: "How long the adapter may take to come back after a reset, in milliseconds (above 0, at most 3600000 = one hour; fractions allowed). Default 5000.")
        static let supervisionTimeoutMilliseconds = JSONField.number("supervisionTimeoutMilliseconds", 100...32000, default: 420,
                                                                     expected: "a number of milliseconds from 100 to 32000 (Core v5.4 Vol 6 Part B §4.5.2)", description: "The supervision timeout the central asks for, in milliseconds (100 to 32000, Core v5.4 Vol 6 Part B §4.5.2); it must be larger than twice the connection interval. Default 420.")
        static let connectionIntervalMilliseconds = JSONField.number("connectionIntervalMilliseconds", 7.5...4000, default: 30,
                                                                     expected: "a number of milliseconds from 7.5 to 4000 (Core v5.4 Vol 6 Part B §4.5.1)", description: "The connection interval the central asks for, in milliseconds (7.5 to 4000, Core v5.4 Vol 6 Part B §4.5.1). Default 30.")
        static let stabilityCycles = JSONField.integer("stabilityCycles", 1...100000, default: 10, description: "How many cycles the stability loops run (1 to 100000). Default 10.")
        static let connectP95Milliseconds = JSONField.number("connectP95Milliseconds", above: 0, atMost: 3600000, default: 3000, expected: milliseconds, description: "The 95th percentile of connection times over the stability loop must stay within this, in milliseconds (above 0, at most 3600000 = one hour; fractions allowed). Default 3000.")
        static let discoveryP95Milliseconds = JSONField.number("discoveryP95Milliseconds", above: 0, atMost: 3600000, default: 5000, expected: milliseconds, description: "The 95th percentile of discovery times over the stability loop must stay within this, in milliseconds (above 0, at most 3600000 = one hour; fractions allowed). Default 5000.")
        static let minimumSuccessRate = JSONField.number("minimumSuccessRate", 0...1, default: 1, expected: "a fraction from 0 to 1", description: "The fraction of stability cycles that must succeed (0 to 1). Default 1.")
        static let pairingMilliseconds = JSONField.number("pairingMilliseconds", above: 0, atMost: 3600000, default: 5000, expected: milliseconds, description: "How long a pairing may take, from Pairing Request to the last distributed key, in milliseconds (above 0, at most 3600000 = one hour; fractions allowed). Default 5000.")
        static let encryptionMilliseconds = JSONField.number("encryptionMilliseconds", above: 0, atMost: 3600000, default: 2000, expected: milliseconds, description: "How long re-encryption with a bond's key may take (LE Enable Encryption to Encryption Change), in milliseconds (above 0, at most 3600000 = one hour; fractions allowed). Default 2000.")
        package static let shape = JSONShape("budgets", [advertisingAfterPowerOnMilliseconds, connectMilliseconds, discoveryMilliseconds, linkLossMarginMilliseconds, reconnectMilliseconds, adapterResetMilliseconds, supervisionTimeoutMilliseconds, connectionIntervalMilliseconds, stabilityCycles, connectP95Milliseconds, discoveryP95Milliseconds, minimumSuccessRate, pairingMilliseconds, encryptionMilliseconds], notes: [ReaderNote("The reader also checks that supervisionTimeoutMilliseconds is larger than twice connectionIntervalMilliseconds (Core v5.4 Vol 4 Part E §7.8.12), each defaulting as described; a schema cannot compare two fields.", refusals: ["must be larger than twice the connection interval"])])
        package static let definition = JSONDefinition(shape)
    }
}
