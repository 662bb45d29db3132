import Foundation

extension PowerSwitchDescription {
    public init(from decoder: any Decoder) throws {
        let fields = try RigFields(decoder)
        let name = try fields.string("name", "a switch name, e.g. \"pdu-outlet-3\"")
        guard !name.contains(where: \.isWhitespace) else {
            throw fields.fail("name", expected: "a name without spaces")
        }
        let kindText = try fields.string("kind", "one of " + Kind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
        guard let kind = Kind(rawValue: kindText) else {
            throw fields.fail("kind", expected: "one of " + Kind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
        }
        let common: Set<String> = ["name", "kind", "verify"]
        switch kind {
        case .command:
            try fields.rejectUnknown(allowed: common.union(["on", "off", "status", "statePattern", "deadlineSeconds"]), kind: kind.rawValue)
            var pattern: StatePattern?
            if let patternFields = try fields.nested("statePattern") {
                try patternFields.rejectUnknown(allowed: ["on", "off"], kind: "statePattern")
                let on = try patternFields.string("on", "a regular expression")
                let off = try patternFields.string("off", "a regular expression")
                for (key, text) in [("on", on), ("off", off)] where (try? NSRegularExpression(pattern: text)) == nil {
                    throw patternFields.fail(key, expected: "a valid regular expression")
                }
                pattern = try StatePattern(on: on, off: off)
            }
            backend = .command(on: try fields.argv("on", required: true) ?? [], off: try fields.argv("off", required: true) ?? [],
                               status: try fields.argv("status", required: false), statePattern: pattern,
                               deadline: try fields.seconds("deadlineSeconds", default: 10))
        case .usbHub:
            try fields.rejectUnknown(allowed: common.union(["hub", "ports", "port", "method", "force", "repeat"]), kind: kind.rawValue)
            let hubText = try fields.string("hub", "a hub location like \"1-1.4\"")
            guard let hub = USBLocation(hubText) else { throw fields.fail("hub", expected: "a hub location like \"1-1.4\" (bus-port.port…)") }
            let methods = HubSwitchMethod.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            let methodText = try fields.optionalString("method", "one of \(methods)") ?? HubSwitchMethod.auto.rawValue
            guard let method = HubSwitchMethod(rawValue: methodText) else { throw fields.fail("method", expected: "one of \(methods)") }
            let repeatOff = try fields.number("repeat", in: 1...10, default: 1)
            guard repeatOff == repeatOff.rounded() else { throw fields.fail("repeat", expected: "a whole number from 1 to 10") }
            backend = .usbHub(hub: hub, ports: try fields.ports(), method: method, force: try fields.bool("force", default: false), repeatOff: Int(repeatOff))
        case .ykush:
            try fields.rejectUnknown(allowed: common.union(["serial", "ports", "port"]), kind: kind.rawValue)
            backend = .ykush(serial: try fields.optionalString("serial"), ports: try fields.ports())
        case .relay:
            try fields.rejectUnknown(allowed: common.union(["vendor", "serial", "ports", "port"]), kind: kind.rawValue)
            let vendors = USBRelayActuator.supportedVendors.map { "\"\($0)\"" }.joined(separator: ", ")
            let vendor = try fields.string("vendor", "one of \(vendors)")
            guard USBRelayActuator.supportedVendors.contains(vendor) else { throw fields.fail("vendor", expected: "one of \(vendors)") }
            backend = .relay(vendor: vendor, serial: try fields.optionalString("serial"), ports: try fields.ports())
        case .process:
            try fields.rejectUnknown(allowed: common.union(["argv", "environment", "readyPattern", "readyDeadlineSeconds", "stopDeadlineSeconds", "pidFile"]), kind: kind.rawValue)
            var environment: [String: String]?
            if fields.has("environment") {
                guard let values = try? fields.container.decode([String: String].self, forKey: AnyKey("environment")) else {
                    throw fields.fail("environment", expected: "an object of string values")
                }
                environment = values
            }
            let ready = try fields.optionalString("readyPattern", "a regular expression")
            if let ready, (try? NSRegularExpression(pattern: ready)) == nil { throw fields.fail("readyPattern", expected: "a valid regular expression") }
            backend = .process(argv: try fields.argv("argv", required: true) ?? [], environment: environment, readyPattern: ready,
                               readyDeadline: try fields.seconds("readyDeadlineSeconds", default: 10),
                               stopDeadline: try fields.seconds("stopDeadlineSeconds", default: 5),
                               pidFile: try fields.optionalString("pidFile", "a file path"))
        }
        var verify = Verify()
        if let verifyFields = try fields.nested("verify") {
            try verifyFields.rejectUnknown(allowed: ["devices", "deadlineSeconds", "onDeadlineSeconds"], kind: "verify")
            if verifyFields.has("devices") {
                guard let values = try? verifyFields.container.decode([JSONValue].self, forKey: AnyKey("devices")) else {
                    throw verifyFields.fail("devices", expected: "an array of devices like \"2fe3:000b\"")
                }
                verify.devices = try values.enumerated().map { index, value in
                    guard case .string(let text) = value, let expectation = DeviceExpectation(text) else {
                        throw verifyFields.fail("devices", expected: "a device: \"VID:PID\", \"VID:PID/SERIAL\", a location like \"1-1.4.2\", or \"LOCATION=VID:PID\"", found: value.description, index: index)
                    }
                    return expectation
                }
            }
            verify.offDeadline = try verifyFields.seconds("deadlineSeconds", max: 120, default: 3)
            verify.onDeadline = try verifyFields.seconds("onDeadlineSeconds", max: 120, default: verifyFields.has("deadlineSeconds") ? max(verify.offDeadline.inSeconds, 10) : 10)
        }
        self.name = name
        self.verify = verify
    }

    /// The `powerSwitches` of a rig file (every other key is ignored; a rig without the key has none).
    /// Errors name the file, the field path and the wrong value.
    public static func loadPowerSwitches(fromRigFile path: String) throws -> [PowerSwitchDescription] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PowerSwitchError(.invalidInput, "rig file \(path): cannot be read (\(FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file"))")
        }
        return try loadPowerSwitches(fromJSON: data, source: path)
    }

    /// The same, from the rig's bytes; `source` names it in messages.
    public static func loadPowerSwitches(fromJSON data: Data, source: String = "rig") throws -> [PowerSwitchDescription] {
        struct RigPowerSwitches: Decodable {
            var powerSwitches: [PowerSwitchDescription]?
            init(from decoder: any Decoder) throws {
                let fields = try RigFields(decoder)
                guard fields.has("powerSwitches") else { powerSwitches = nil; return }
                guard (try? fields.container.decode([JSONValue].self, forKey: AnyKey("powerSwitches"))) != nil else {
                    throw fields.fail("powerSwitches", expected: "an array of switch entries")
                }
                powerSwitches = try fields.container.decode([PowerSwitchDescription].self, forKey: AnyKey("powerSwitches"))
            }
        }
        let switches: [PowerSwitchDescription]
        do {
            switches = try JSONDecoder().decode(RigPowerSwitches.self, from: data).powerSwitches ?? []
        } catch let error as PowerSwitchError {
            throw PowerSwitchError(.invalidInput, "rig file \(source): \(error.message)")
        } catch let error as DecodingError {
            throw PowerSwitchError(.invalidInput, "rig file \(source): \(describe(error))")
        } catch {
            throw PowerSwitchError(.invalidInput, "rig file \(source): \(error)")
        }
        var seen = Set<String>()
        for (index, entry) in switches.enumerated() where !seen.insert(entry.name).inserted {
            throw PowerSwitchError(.invalidInput, "rig file \(source): powerSwitches[\(index)].name: \"\(entry.name)\" is used twice")
        }
        return switches
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return context.codingPath.isEmpty ? "not valid JSON (\(underlying ?? context.debugDescription))"
                                              : "\(renderPath(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context): return "\(renderPath(context.codingPath + [key])): missing"
        case .typeMismatch(let type, let context): return "\(renderPath(context.codingPath)): expected \(type)"
        case .valueNotFound(let type, let context): return "\(renderPath(context.codingPath)): expected \(type), found null"
        @unknown default: return "\(error)"
        }
    }
}
