import HCIPackets
import RigFormat

extension SimulatedWorldDescription {
    /// Reads a rig's `simulation` block: `controllers` (required), `powerSwitch`, `timing`. Every field is
    /// checked and unknown keys are rejected; names, addresses and switch ports must be unique, and each
    /// port must feed a controller of the world.
    public init(reading value: RigValue) throws(RigError) {
        self = try value.object(keys: ["controllers", "powerSwitch", "timing"]) { fields throws(RigError) -> SimulatedWorldDescription in
            let list = try fields.required("controllers", "an array of simulated controllers")
            var controllers: [Controller] = []
            var names: [String: String] = [:]
            var addresses: [String: String] = [:]
            for item in try list.array("a non-empty array of simulated controllers", nonEmpty: true) {
                let controller = try Controller(reading: item)
                if let first = names[controller.name] {
                    throw RigError(at: "\(item.path).name", "'\(controller.name)' is used twice (first by \(first))")
                }
                names[controller.name] = item.path
                let address = "\(controller.addressType.isRandom ? "random" : "public") \(controller.address)"
                if let first = addresses[address] {
                    throw RigError(at: "\(item.path).address", "the \(address) address is used twice (first by \(first))")
                }
                addresses[address] = item.path
                controllers.append(controller)
            }
            var powerSwitch: PowerSwitch?
            if let value = fields.value("powerSwitch") {
                powerSwitch = try PowerSwitch(reading: value, controllers: controllers.map(\.name))
            }
            let timing = try fields.value("timing").map { (value: RigValue) throws(RigError) -> SimulationTiming in try SimulationTiming(reading: value) }
            return SimulatedWorldDescription(controllers: controllers, powerSwitch: powerSwitch, timing: timing ?? .rigDefault)
        }
        let problems = self.problems
        guard problems.isEmpty else { throw value.problem(problems.joined(separator: "; ")) }
    }
}

extension SimulatedWorldDescription.Controller {
    static let keys = ["name", "address", "addressType", "rssi", "faults", "manufacturer", "hciVersion", "hciSubversion",
                       "lmpVersion", "lmpSubversion", "leBufferLength", "leBufferCount", "leFeatures"]

    /// Reads one simulated controller: `name` and `address` required, every other field optional.
    /// `addressType` is "public" or "random", `faults` a list such as ["refusesConnections"].
    public init(reading value: RigValue) throws(RigError) {
        self = try value.object(keys: Self.keys) { fields throws(RigError) -> Self in
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
            func byte(_ key: String, _ fallback: UInt8, in range: ClosedRange<Int> = 0...255) throws(RigError) -> UInt8 {
                UInt8(try fields.integer(key, in: range, default: Int(fallback)))
            }
            func word(_ key: String, _ fallback: UInt16, in range: ClosedRange<Int> = 0...0xFFFF) throws(RigError) -> UInt16 {
                UInt16(try fields.integer(key, in: range, default: Int(fallback)))
            }
            return Self(name: name, address: address, addressType: addressType,
                        rssi: try fields.integer("rssi", in: -127...20, "an RSSI in dBm from -127 to 20", default: d.rssi),
                        faults: faults,
                        manufacturer: CompanyIdentifier(try word("manufacturer", d.manufacturer.rawValue)),
                        hciVersion: BluetoothVersion(try byte("hciVersion", d.hciVersion.rawValue)),
                        hciSubversion: try word("hciSubversion", d.hciSubversion),
                        lmpVersion: BluetoothVersion(try byte("lmpVersion", d.lmpVersion.rawValue)),
                        lmpSubversion: try word("lmpSubversion", d.lmpSubversion),
                        leBufferLength: try word("leBufferLength", d.leBufferLength, in: 27...0xFFFF),
                        leBufferCount: try byte("leBufferCount", d.leBufferCount, in: 1...255),
                        leFeatures: try fields.value("leFeatures").map { (value: RigValue) throws(RigError) -> LEFeatures in
                            LEFeatures(rawValue: try value.unsigned64("LE_Features as a whole number from 0 to 18446744073709551615"))
                        } ?? d.leFeatures)
        }
    }
}

extension SimulatedWorldDescription.PowerSwitch {
    /// Reads a simulated switch: `name` (default "sim-switch") and `ports`, each `{"number": N,
    /// "controller": NAME}` with N from 1 to 255, once each, feeding a controller in `controllers`.
    public init(reading value: RigValue, controllers: [String]) throws(RigError) {
        self = try value.object(keys: ["name", "ports"]) { fields throws(RigError) -> Self in
            var name = "sim-switch"
            if let nameValue = fields.value("name") {
                name = try nameValue.string("a switch name")
                guard !name.contains(where: \.isWhitespace) else { throw nameValue.fail("a name without spaces") }
            }
            let list = try fields.required("ports", "an array of ports like {\"number\": 1, \"controller\": \"thermometer\"}")
            var ports: [Port] = []
            var seen: [Int: String] = [:]
            for item in try list.array("a non-empty array of ports like {\"number\": 1, \"controller\": \"thermometer\"}", nonEmpty: true) {
                let port = try item.object(keys: ["number", "controller"]) { portFields throws(RigError) -> Port in
                    let number = try portFields.required("number", "a port number from 1 to 255").integer(in: 1...255, "a port number from 1 to 255")
                    let controllerValue = try portFields.required("controller", "the name of the controller it feeds")
                    let controller = try controllerValue.string("the name of the controller it feeds")
                    guard controllers.contains(controller) else {
                        throw controllerValue.problem("no simulated controller named '\(JSONValue.excerpt(controller))' (simulation.controllers has: \(controllers.joined(separator: ", ")))")
                    }
                    return Port(number: number, controller: controller)
                }
                if let first = seen[port.number] {
                    throw RigError(at: "\(item.path).number", "port \(port.number) is listed twice (first by \(first))")
                }
                seen[port.number] = item.path
                ports.append(port)
            }
            return Self(name: name, ports: ports)
        }
    }
}

extension SimulationTiming {
    /// Reads `simulation.timing`; every field optional, each within its range (nothing is clamped). A rig's
    /// simulated bench runs on virtual time unless `"clock": "real"` says otherwise.
    public init(reading value: RigValue) throws(RigError) {
        self = try value.object(keys: ["clock", "timeScale", "maximumAdvertisingDelayMilliseconds", "usbResetDelayMilliseconds", "rssiJitter",
                                       "connectionUpdateInstantEvents", "seed"]) { fields throws(RigError) -> Self in
            let d = Self.rigDefault
            let clock = try fields.optionalString("clock", "\"virtual\" or \"real\"") ?? d.clock.rawValue
            guard let kind = Clock(rawValue: clock) else {
                throw RigError(at: fields.path("clock"), "must be \"virtual\" or \"real\", not \"\(JSONValue.excerpt(clock))\"")
            }
            return Self(
                timeScale: try fields.number("timeScale", in: 0.001...1000, default: d.timeScale),
                maximumAdvertisingDelayMilliseconds: try fields.number("maximumAdvertisingDelayMilliseconds", in: 0...10,
                    "a number of milliseconds from 0 to 10 (advDelay, Core v5.4 Vol 6 Part B §4.4.2.2.1)", default: d.maximumAdvertisingDelayMilliseconds),
                usbResetDelayMilliseconds: try fields.number("usbResetDelayMilliseconds", in: 0...60_000,
                    "a number of milliseconds from 0 to 60000", default: d.usbResetDelayMilliseconds),
                rssiJitter: try fields.integer("rssiJitter", in: 0...40, "a number of dB from 0 to 40", default: d.rssiJitter),
                connectionUpdateInstantEvents: try fields.integer("connectionUpdateInstantEvents", in: 6...32767,
                    "a number of connection events from 6 to 32767 (Core v5.4 Vol 6 Part B §5.1.1)", default: d.connectionUpdateInstantEvents),
                seed: try fields.value("seed")?.unsigned64(),
                clock: kind)
        }
    }

    /// The timing of a rig's simulated bench that names none: the defaults, on virtual time.
    public static var rigDefault: SimulationTiming {
        var timing = SimulationTiming()
        timing.clock = .virtual
        return timing
    }
}
