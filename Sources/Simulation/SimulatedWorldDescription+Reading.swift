import HCIPackets
import StrictJSON

extension SimulatedWorldDescription {
    /// Reads a rig's `simulation` block: `controllers` (required), `powerSwitch`, `timing`. Every field is
    /// checked and unknown keys are rejected; names, addresses and switch ports must be unique, and each
    /// port must feed a controller of the world.
    package init(reading value: InputValue) throws(InputError) {
        self = try value.object(SimulationFormat.Simulation.shape) { fields throws(InputError) -> SimulatedWorldDescription in
            let list = try fields.required("controllers", "an array of simulated controllers")
            var controllers: [Controller] = []
            var names: [String: String] = [:]
            var addresses: [String: String] = [:]
            for item in try list.array("a non-empty array of simulated controllers", nonEmpty: true) {
                let controller = try Controller(reading: item)
                if let first = names[controller.name] {
                    throw InputError(at: "\(item.path).name", "'\(controller.name)' is used twice (first by \(first))")
                }
                names[controller.name] = item.path
                let address = "\(controller.addressType.isRandom ? "random" : "public") \(controller.address)"
                if let first = addresses[address] {
                    throw InputError(at: "\(item.path).address", "the \(address) address is used twice (first by \(first))")
                }
                addresses[address] = item.path
                controllers.append(controller)
            }
            var powerSwitch: PowerSwitch?
            if let value = fields.value("powerSwitch") {
                powerSwitch = try PowerSwitch(reading: value, controllers: controllers.map(\.name))
            }
            let timing = try fields.value("timing").map { (value: InputValue) throws(InputError) -> SimulationTiming in try SimulationTiming(reading: value) }
            return SimulatedWorldDescription(controllers: controllers, powerSwitch: powerSwitch, timing: timing ?? .rigDefault)
        }
        let problems = self.problems
        guard problems.isEmpty else { throw value.problem(problems.joined(separator: "; ")) }
    }
}

extension SimulatedWorldDescription.Controller {
    private typealias Table = SimulationFormat.Controller

    /// Reads one simulated controller: `name` and `address` required, every other field optional.
    /// `addressType` is "public" or "random", `faults` a list such as ["refusesConnections"].
    package init(reading value: InputValue) throws(InputError) {
        self = try value.object(Table.shape) { fields throws(InputError) -> Self in
            let nameValue = try fields.required("name", "a controller name (its moniker is sim:NAME)")
            let name = try nameValue.string("a controller name (its moniker is sim:NAME)")
            guard !name.contains(where: { $0.isWhitespace || $0 == "/" }) else { throw nameValue.fail("a name without whitespace or '/'") }
            let addressValue = try fields.required("address", "a BD_ADDR like \"C0:48:49:4C:00:02\"")
            guard let address = BDAddress(try addressValue.string("a BD_ADDR like \"C0:48:49:4C:00:02\"")), address != .zero else {
                throw addressValue.fail("a BD_ADDR like \"C0:48:49:4C:00:02\" (00:00:00:00:00:00 means no address)")
            }
            var addressType = AddressType.public
            if let typeValue = fields.value("addressType") {
                switch typeValue.node.value {
                case .string("public"): addressType = .public
                case .string("random"): addressType = .random
                default: throw typeValue.fail("\"public\" or \"random\"")
                }
                if addressType == .random, !(address.isStaticRandom && address.hasValidRandomPart) {
                    throw addressValue.fail("a static random address (top two bits 11, random part neither all 0 nor all 1) for addressType \"random\"")
                }
            }
            var faults = Set<SimulatedFault>()
            if let list = fields.value("faults") {
                let known = SimulatedFault.allCases.map(\.rawValue)
                for item in try list.array("an array of fault names (\(known.joined(separator: ", ")))") {
                    let text = try item.string("a fault name (\(known.joined(separator: ", ")))")
                    guard let fault = SimulatedFault(rawValue: text) else {
                        if let near = DidYouMean.closest(to: text, among: known) { throw item.problem("unknown fault \"\(JSONValue.excerpt(text))\"; did you mean \(near)?") }
                        throw item.fail("a fault name (\(known.joined(separator: ", ")))")
                    }
                    guard faults.insert(fault).inserted else { throw item.fail("each fault once") }
                }
            }
            let d = Self(name: name, address: address)
            func byte(_ field: JSONField) throws(InputError) -> UInt8 { UInt8(clamping: try fields.integer(field)) }
            func word(_ field: JSONField) throws(InputError) -> UInt16 { UInt16(clamping: try fields.integer(field)) }
            return Self(name: name, address: address, addressType: addressType,
                        rssi: try fields.integer(Table.rssi),
                        faults: faults,
                        manufacturer: CompanyIdentifier(try word(Table.manufacturer)),
                        hciVersion: BluetoothVersion(try byte(Table.hciVersion)),
                        hciSubversion: try word(Table.hciSubversion),
                        lmpVersion: BluetoothVersion(try byte(Table.lmpVersion)),
                        lmpSubversion: try word(Table.lmpSubversion),
                        leBufferLength: try word(Table.leBufferLength),
                        leBufferCount: try byte(Table.leBufferCount),
                        leFeatures: try fields.optionalUnsigned64(Table.leFeatures).map(LEFeatures.init(rawValue:)) ?? d.leFeatures,
                        maxDataLength: try word(Table.maxDataLength),
                        phys: try fields.value(Table.phys).map { (value: InputValue) throws(InputError) -> Set<RadioPHY> in try Self.phys(reading: value) } ?? d.phys)
        }
    }
}

extension SimulatedWorldDescription.Controller {
    /// Reads `phys`: a non-empty list of "1M", "2M" and "coded", each once, with "1M".
    static func phys(reading list: InputValue) throws(InputError) -> Set<RadioPHY> {
        let expected = "a list of PHYs from 1M, 2M and coded that includes 1M"
        var phys = Set<RadioPHY>()
        for item in try list.array(expected, nonEmpty: true) {
            let text = try item.string("a PHY: 1M, 2M or coded")
            guard let index = Table.phyNames.firstIndex(of: text) else {
                if let near = DidYouMean.closest(to: text, among: Table.phyNames) { throw item.problem("unknown PHY \"\(JSONValue.excerpt(text))\"; did you mean \(near)?") }
                throw item.fail("a PHY: 1M, 2M or coded")
            }
            guard phys.insert(RadioPHY.allCases[index]).inserted else { throw item.fail("each PHY once") }
        }
        guard phys.contains(.le1M) else { throw list.fail(expected) }
        return phys
    }
}

extension SimulatedWorldDescription.PowerSwitch {
    /// Reads a simulated switch: `name` (default "sim-switch") and `ports`, each `{"number": N,
    /// "controller": NAME}` with N from 1 to 255, once each, feeding a controller in `controllers`.
    package init(reading value: InputValue, controllers: [String]) throws(InputError) {
        self = try value.object(SimulationFormat.PowerSwitch.shape) { fields throws(InputError) -> Self in
            let name = try fields.string(SimulationFormat.PowerSwitch.name)
            if let nameValue = fields.value(SimulationFormat.PowerSwitch.name), name.contains(where: \.isWhitespace) {
                throw nameValue.fail("a name without spaces")
            }
            let list = try fields.required("ports", "an array of ports like {\"number\": 1, \"controller\": \"thermometer\"}")
            var ports: [Port] = []
            var seen: [Int: String] = [:]
            for item in try list.array("a non-empty array of ports like {\"number\": 1, \"controller\": \"thermometer\"}", nonEmpty: true) {
                let port = try item.object(SimulationFormat.Port.shape) { portFields throws(InputError) -> Port in
                    let number = try portFields.integer(SimulationFormat.Port.number)
                    let controllerValue = try portFields.required("controller", "the name of the controller it feeds")
                    let controller = try controllerValue.string("the name of the controller it feeds")
                    guard controllers.contains(controller) else {
                        throw controllerValue.problem("no simulated controller named '\(JSONValue.excerpt(controller))' (simulation.controllers has: \(controllers.joined(separator: ", ")))")
                    }
                    return Port(number: number, controller: controller)
                }
                if let first = seen[port.number] {
                    throw InputError(at: "\(item.path).number", "port \(port.number) is listed twice (first by \(first))")
                }
                seen[port.number] = item.path
                ports.append(port)
            }
            return Self(name: name, ports: ports)
        }
    }
}

extension SimulationTiming {
    private typealias Table = SimulationFormat.Timing

    /// Reads `simulation.timing`; every field optional, each within its range (nothing is clamped). A rig's
    /// simulated bench runs on virtual time unless `"clock": "real"` says otherwise.
    package init(reading value: InputValue) throws(InputError) {
        self = try value.object(Table.shape) { fields throws(InputError) -> Self in
            let clock = try fields.string(Table.clock)
            guard let kind = Clock(rawValue: clock) else {
                throw InputError(at: fields.path("clock"), "must be \"virtual\" or \"real\", not \"\(JSONValue.excerpt(clock))\"")
            }
            return Self(
                timeScale: try fields.number(Table.timeScale),
                maximumAdvertisingDelayMilliseconds: try fields.number(Table.maximumAdvertisingDelayMilliseconds),
                usbResetDelayMilliseconds: try fields.number(Table.usbResetDelayMilliseconds),
                rssiJitter: try fields.integer(Table.rssiJitter),
                connectionUpdateInstantEvents: try fields.integer(Table.connectionUpdateInstantEvents),
                seed: try fields.optionalUnsigned64(Table.seed),
                clock: kind)
        }
    }

    /// The timing of a rig's simulated bench that names none: the defaults, on virtual time.
    package static var rigDefault: SimulationTiming {
        var timing = SimulationTiming()
        timing.clock = .virtual
        return timing
    }
}
