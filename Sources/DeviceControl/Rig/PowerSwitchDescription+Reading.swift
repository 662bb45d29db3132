import Foundation
import StrictJSON

extension PowerSwitchDescription {
    private typealias Table = PowerSwitchFormat.Switch

    /// Reads one entry of a rig's `powerSwitches`: every field checked, a field of another kind or an
    /// unknown key rejected (`powerSwitches[0].serail: unknown key; did you mean serial?`).
    package init(reading value: InputValue) throws(InputError) {
        let kinds = "one of " + Kind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        self = try value.object(keys: Table.shape.keys.sorted()) { fields throws(InputError) -> PowerSwitchDescription in
            let nameValue = try fields.required("name", "a switch name, e.g. \"pdu-outlet-3\"")
            let name = try nameValue.string("a switch name, e.g. \"pdu-outlet-3\"")
            guard !name.contains(where: \.isWhitespace) else { throw nameValue.fail("a name without spaces") }
            let kindValue = try fields.required("kind", kinds)
            guard let kind = Kind(rawValue: try kindValue.string(kinds)) else { throw kindValue.fail(kinds) }
            try fields.restrict(to: Table.keys(of: kind), what: "unknown key for kind \"\(kind.rawValue)\"")
            let backend = try Self.backend(kind, fields)
            let verify = try fields.value("verify").map { (value: InputValue) throws(InputError) -> Verify in try Verify(reading: value) } ?? Verify()
            return PowerSwitchDescription(name: name, backend: backend, verify: verify)
        }
    }

    /// A rig's `powerSwitches` array; names must be unique.
    package static func list(reading value: InputValue) throws(InputError) -> [PowerSwitchDescription] {
        var switches: [PowerSwitchDescription] = []
        var seen: [String: Int] = [:]
        for (index, item) in try value.array("an array of switch entries").enumerated() {
            let entry = try PowerSwitchDescription(reading: item)
            if let first = seen[entry.name] {
                throw InputError(at: "\(item.path).name", "\"\(entry.name)\" is used twice (first by \(value.path)[\(first)])")
            }
            seen[entry.name] = index
            switches.append(entry)
        }
        return switches
    }

    private static func backend(_ kind: Kind, _ fields: InputObject) throws(InputError) -> Backend {
        switch kind {
        case .command:
            var pattern: StatePattern?
            if let value = fields.value("statePattern") {
                pattern = try value.object(PowerSwitchFormat.StatePattern.shape) { patternFields throws(InputError) -> StatePattern in
                    let on = try regularExpression(patternFields.required(PowerSwitchFormat.StatePattern.on))
                    let off = try regularExpression(patternFields.required(PowerSwitchFormat.StatePattern.off))
                    do { return try StatePattern(on: on, off: off) } catch { throw value.problem("\(error)") }
                }
            }
            return .command(on: try argv(fields, "on", required: true) ?? [], off: try argv(fields, "off", required: true) ?? [],
                            status: try argv(fields, "status", required: false), statePattern: pattern,
                            deadline: try seconds(fields, Table.deadlineSeconds))
        case .usbHub:
            let hubValue = try fields.required("hub", "a hub location like \"1-1.4\"")
            guard let hub = USBLocation(try hubValue.string("a hub location like \"1-1.4\"")) else {
                throw hubValue.fail("a hub location like \"1-1.4\" (bus-port.port…)")
            }
            let methods = "one of " + HubSwitchMethod.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            var method = HubSwitchMethod.auto
            if let value = fields.value("method") {
                guard let parsed = HubSwitchMethod(rawValue: try value.string(methods)) else { throw value.fail(methods) }
                method = parsed
            }
            return .usbHub(hub: hub, ports: try ports(fields), method: method, force: try fields.bool(Table.force),
                           repeatOff: try fields.integer(Table.repeat))
        case .ykush:
            return .ykush(serial: try fields.optionalString("serial"), ports: try ports(fields))
        case .relay:
            let vendors = "one of " + USBRelayActuator.supportedVendors.map { "\"\($0)\"" }.joined(separator: ", ")
            let vendorValue = try fields.required("vendor", vendors)
            let vendor = try vendorValue.string(vendors)
            guard USBRelayActuator.supportedVendors.contains(vendor) else { throw vendorValue.fail(vendors) }
            return .relay(vendor: vendor, serial: try fields.optionalString("serial"), ports: try ports(fields))
        case .process:
            var environment: [String: String]?
            if let value = fields.value("environment") {
                guard case .object(let members) = value.node.value else { throw value.fail("an object of string values") }
                var values: [String: String] = [:]
                for member in members {
                    values[member.key] = try InputValue(member.value, path: "\(value.path).\(member.key)").string("a string", allowEmpty: true)
                }
                environment = values
            }
            let ready = try fields.value("readyPattern").map { (value: InputValue) throws(InputError) -> String in try regularExpression(value) }
            return .process(argv: try argv(fields, "argv", required: true) ?? [], environment: environment, readyPattern: ready,
                            readyDeadline: try seconds(fields, Table.readyDeadlineSeconds),
                            stopDeadline: try seconds(fields, Table.stopDeadlineSeconds),
                            pidFile: try fields.optionalString("pidFile", "a file path"))
        case .labgrid:
            let place = try fields.string("place", "the name of a labgrid place, e.g. \"bench-1\"")
            let coordinator = try fields.value("coordinator").map { (value: InputValue) throws(InputError) -> String in try coordinatorAddress(value) }
            return .labgrid(place: place, resource: try fields.optionalString("resource", "the name of the place's power resource"),
                            coordinator: coordinator)
        case .ppk2:
            return .ppk2(meter: try fields.string("meter", "the name of a ppk2 meter of the rig's meters, in source mode"))
        }
    }

    /// A labgrid coordinator address, `HOST:PORT`.
    package static func coordinatorAddress(_ value: InputValue) throws(InputError) -> String {
        let expected = "a labgrid coordinator address like \"127.0.0.1:20408\""
        let text = try value.string(expected)
        guard let colon = text.lastIndex(of: ":"), colon != text.startIndex, let port = Int(text[text.index(after: colon)...]),
              (1...65_535).contains(port), !text.contains(where: \.isWhitespace) else { throw value.fail(expected) }
        return text
    }

    private static func regularExpression(_ value: InputValue) throws(InputError) -> String {
        let text = try value.string("a regular expression")
        guard (try? NSRegularExpression(pattern: text)) != nil else { throw value.fail("a valid regular expression") }
        return text
    }

    /// Seconds in the field's range (or its default), as a duration.
    static func seconds(_ fields: InputObject, _ field: JSONField) throws(InputError) -> Duration {
        .milliseconds(Int64((try fields.number(field) * 1000).rounded()))
    }

    /// Seconds from 0.001 to 120, as a duration, defaulting to `fallback`.
    static func seconds(_ fields: InputObject, _ field: JSONField, default fallback: Double) throws(InputError) -> Duration {
        guard fields.has(field.key) else { return .milliseconds(Int64((fallback * 1000).rounded())) }
        return try seconds(fields, field)
    }

    /// A command line: a non-empty array of strings, the first a program name (no shell is used).
    private static func argv(_ fields: InputObject, _ key: String, required: Bool) throws(InputError) -> [String]? {
        guard let value = fields.value(key) else {
            if required { throw InputError(at: fields.path(key), "missing; expected a command line as an array of strings, e.g. [\"pdu\", \"on\", \"3\"]") }
            return nil
        }
        let items = try value.array("a command line as an array of strings (no shell is used)")
        guard !items.isEmpty else { throw value.fail("a non-empty array of strings") }
        var words: [String] = []
        for (index, item) in items.enumerated() {
            words.append(try item.string(index == 0 ? "a program name" : "a string", allowEmpty: index > 0))
        }
        return words
    }

    /// `ports: [2, 3]` or `port: 2`, each 1…255, each once.
    private static func ports(_ fields: InputObject) throws(InputError) -> [Int] {
        let expected = "a port number from 1 to 255"
        switch (fields.value("ports"), fields.value("port")) {
        case (.some, .some):
            throw InputError(at: fields.path("port"), "give either \"port\" or \"ports\", not both")
        case (nil, nil):
            throw InputError(at: fields.path("ports"), "missing; expected an array of port numbers, e.g. [2]")
        case (nil, .some(let port)):
            return [try port.integer(in: 1...255, expected)]
        case (.some(let list), nil):
            var seen = Set<Int>()
            var ports: [Int] = []
            for item in try list.array("a non-empty array of port numbers", nonEmpty: true) {
                let port = try item.integer(in: 1...255, expected)
                guard seen.insert(port).inserted else { throw item.fail("each port once") }
                ports.append(port)
            }
            return ports
        }
    }
}

extension PowerSwitchDescription.Verify {
    /// `"verify": "none"`, or `{"devices": [...], "deadlineSeconds": 3, "onDeadlineSeconds": 10}`.
    package init(reading value: InputValue) throws(InputError) {
        let forms = "\"none\" (transitions cannot be verified, and the rig accepts that) or an object like {\"devices\": [\"2fe3:000b\"], \"deadlineSeconds\": 3}"
        if case .string(let text) = value.node.value {
            guard text == "none" else { throw value.fail(forms) }
            self.init(acceptsUnverified: true)
            return
        }
        self = try value.object(PowerSwitchFormat.Verify.shape, forms) { fields throws(InputError) -> Self in
            var verify = Self()
            if let list = fields.value("devices") {
                let device = "a device: \"VID:PID\", \"VID:PID/SERIAL\", a location like \"1-1.4.2\", or \"LOCATION=VID:PID\""
                for item in try list.array("an array of devices like \"2fe3:000b\"") {
                    guard let expectation = DeviceExpectation(try item.string(device)) else { throw item.fail(device) }
                    verify.devices.append(expectation)
                }
            }
            verify.offDeadline = try PowerSwitchDescription.seconds(fields, PowerSwitchFormat.Verify.deadlineSeconds)
            // Devices get at least 10 s to come back after on, unless onDeadlineSeconds says otherwise.
            let onDefault = Swift.max(verify.offDeadline / .seconds(1), PowerSwitchFormat.Verify.onDeadlineSeconds.defaultNumber ?? 10)
            verify.onDeadline = try PowerSwitchDescription.seconds(fields, PowerSwitchFormat.Verify.onDeadlineSeconds, default: onDefault)
            return verify
        }
    }
}
