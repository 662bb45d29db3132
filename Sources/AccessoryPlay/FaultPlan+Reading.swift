import HCIPackets
import HostCore
import StrictJSON

extension FaultPlan {
    /// The keys every step may have.
    static let commonStepKeys = ["name", "do", "expect", "at_ms", "after_connect_ms", "after_connections"]
        + CentralRequest.allCases.map(\.key)
    /// The keys only some actions take, by action.
    static let actionKeys: [String: [String]] = [
        "disconnect": ["reason", "advertise_after_ms"],
        "vanish": ["advertise_after_ms"],
        "stop_answering_att": ["advertise_after_ms"],
        "service_changed": [],
        "notify_flood": ["characteristic", "duration_ms"],
        "update_parameters": ["interval_ms", "latency", "supervision_timeout_ms"],
        "rotate_address": [],
        "require_pairing": [],
        "refuse_pairing": [],
        "forget_bond": [],
    ]
    /// The actions a step may do.
    static let actions = ["disconnect", "vanish", "stop_answering_att", "service_changed", "notify_flood", "update_parameters", "rotate_address",
                          "require_pairing", "refuse_pairing", "forget_bond"]
    /// The keys of a step.
    static let stepKeys = commonStepKeys + ["reason", "advertise_after_ms", "characteristic", "duration_ms", "interval_ms", "latency", "supervision_timeout_ms"]
    /// The keys of a step's `expect`.
    static let expectationKeys = ["reconnect_within_ms", "rediscover_after_service_changed", "rediscover_within_ms", "accept_parameters",
                                  "pair_within_ms", "reencrypt_with_bond", "reencrypt_within_ms"]
    /// The reasons HCI Disconnect accepts (Core v5.4 Vol 4 Part E §7.1.6).
    static let disconnectReasons: [UInt8] = [0x05, 0x13, 0x14, 0x15, 0x1A, 0x29, 0x3B]

    /// Reads a plan file strictly, as rigs are read: unknown keys are errors with a did-you-mean, values out
    /// of range are named with the value as written. `fallbackName` names a plan without `"name"`.
    package static func read(file path: String, fallbackName: String) throws(InputError) -> FaultPlan {
        try InputDocument.read(file: path) { value throws(InputError) in try FaultPlan(reading: value, fallbackName: fallbackName) }
    }

    /// Reads `{"name", "description", "steps": [...]}`.
    package init(reading value: InputValue, fallbackName: String) throws(InputError) {
        self = try value.object(keys: ["$schema", "name", "description", "steps"], "a plan object") { fields throws(InputError) -> FaultPlan in
            _ = try fields.value("$schema")?.string("a string naming the plan's JSON Schema", allowEmpty: true)
            _ = try fields.value("description")?.string("a string (what the plan does)", allowEmpty: true)
            let name = try fields.optionalString("name", "the plan's name (a non-empty string)") ?? fallbackName
            let items = try fields.required("steps", "an array of steps").array("a non-empty array of steps", nonEmpty: true)
            var steps: [Step] = []
            for (index, item) in items.enumerated() { steps.append(try Self.step(item, number: index + 1)) }
            return FaultPlan(name: name, steps: steps)
        }
    }

    static func milliseconds(_ fields: InputObject, _ key: String, upTo limit: Int = 86_400_000) throws(InputError) -> Int? {
        try fields.value(key)?.integer(in: 0...limit, "a whole number of milliseconds from 0 to \(limit)")
    }

    static func step(_ value: InputValue, number: Int) throws(InputError) -> Step {
        try value.object(keys: stepKeys, "a step object") { fields throws(InputError) -> Step in
            let word = try fields.required("do", "an action (\(actions.joined(separator: ", ")))")
                .word("an action", unknown: "action", among: actions)
            let allowed = actionKeys[word] ?? []
            for key in stepKeys where !commonStepKeys.contains(key) && !allowed.contains(key) && fields.has(key) {
                throw try fields.required(key, "").problem(Self.misplaced(key, action: word))
            }
            let action = try Self.action(word, fields)
            let trigger = try Self.trigger(value, fields)
            if action.actsOnLink, case .atTime = trigger {
                throw try fields.required("at_ms", "").problem("\(word) acts on a link: trigger it with after_connect_ms, after_connections or a request")
            }
            let expectations = try fields.value("expect").map { (expect: InputValue) throws(InputError) -> [Expectation] in
                try Self.expectations(expect, action: action)
            } ?? []
            let name = try fields.optionalString("name", "the step's name (a non-empty string)") ?? "step \(number): \(word)"
            return Step(name: name, trigger: trigger, action: action, advertiseAfterMilliseconds: try milliseconds(fields, "advertise_after_ms"),
                        expectations: expectations)
        }
    }

    /// Why `key` does not belong in a step that does `action`.
    static func misplaced(_ key: String, action: String) -> String {
        if key == "advertise_after_ms" { return "a \"\(action)\" step keeps the link up: there is no advertising again to delay" }
        let owners = actions.filter { actionKeys[$0]?.contains(key) == true }.map { "\"\($0)\"" }
        return "only a \(owners.joined(separator: " or ")) step has \(key)"
    }

    /// The action `word` names, with its own keys read.
    static func action(_ word: String, _ fields: InputObject) throws(InputError) -> Action {
        switch word {
        case "disconnect": return .disconnect(reason: try reason(fields.value("reason")))
        case "vanish": return .vanish
        case "stop_answering_att": return .stopAnsweringATT
        case "service_changed": return .serviceChanged
        case "rotate_address": return .rotateAddress
        case "require_pairing": return .requirePairing
        case "refuse_pairing": return .refusePairing
        case "forget_bond": return .forgetBond
        case "notify_flood":
            let characteristic = try AccessoryProfile.uuid(try fields.required("characteristic", "the UUID of the characteristic to notify"))
            return .notifyFlood(characteristic: characteristic, milliseconds: try milliseconds(fields, "duration_ms", upTo: 600_000) ?? 1000)
        default:
            return .updateParameters(try parameters(fields))
        }
    }

    /// `interval_ms` (required), `latency` (default 0), `supervision_timeout_ms` (default 4000), in the ranges of
    /// Core v5.4 Vol 4 Part E §7.8.18, the timeout longer than (1 + latency) × interval × 2.
    static func parameters(_ fields: InputObject) throws(InputError) -> ConnectionParameters {
        let intervalValue = try fields.required("interval_ms", "a connection interval from 7.5 to 4000 ms")
        let interval = try fields.number("interval_ms", in: 7.5...4000, "a connection interval from 7.5 to 4000 ms, in steps of 1.25", default: 0)
        guard (interval / 1.25).rounded() == interval / 1.25 else {
            throw intervalValue.problem("a connection interval is a multiple of 1.25 ms (7.5, 8.75, … 30, 45, …)")
        }
        let latency = try fields.value("latency")?.integer(in: 0...499, "a peripheral latency from 0 to 499 connection events") ?? 0
        let timeout = try fields.value("supervision_timeout_ms")?.integer(in: 100...32_000, "a supervision timeout from 100 to 32000 ms") ?? 4000
        guard Double(timeout) > Double(1 + latency) * interval * 2 else {
            throw try fields.required(fields.has("supervision_timeout_ms") ? "supervision_timeout_ms" : "interval_ms", "")
                .problem("the supervision timeout (\(timeout) ms) must be longer than (1 + latency) × interval × 2 = \(RoundedText.ms(Double(1 + latency) * interval * 2))")
        }
        guard timeout % 10 == 0 else {
            throw try fields.required("supervision_timeout_ms", "").problem("a supervision timeout is a multiple of 10 ms")
        }
        let units = UInt16(interval / 1.25)
        return ConnectionParameters(intervalMin: units, intervalMax: units, latency: UInt16(latency), supervisionTimeout: UInt16(timeout / 10))
    }

    /// The step's one trigger.
    static func trigger(_ value: InputValue, _ fields: InputObject) throws(InputError) -> Trigger {
        let atTime = try milliseconds(fields, "at_ms")
        let afterConnect = try milliseconds(fields, "after_connect_ms")
        let connections = try fields.value("after_connections")?.integer(in: 1...10_000, "a number of connections from 1 to 10000")
        var triggers: [Trigger] = []
        if let atTime { triggers.append(.atTime(milliseconds: atTime)) }
        if afterConnect != nil || connections != nil { triggers.append(.afterConnect(milliseconds: afterConnect ?? 0, connections: connections ?? 1)) }
        for request in CentralRequest.allCases {
            if let uuid = fields.value(request.key) { triggers.append(.afterRequest(request, characteristic: try AccessoryProfile.uuid(uuid))) }
        }
        guard let trigger = triggers.first else {
            throw value.problem("missing a trigger: at_ms (from the start), after_connect_ms / after_connections (from a connection), "
                                + "or after_read / after_write / after_subscribe (a characteristic's UUID)")
        }
        guard triggers.count == 1 else {
            let first = ["at_ms", "after_connect_ms", "after_connections"].first { fields.has($0) } ?? CentralRequest.allCases.map(\.key).first { fields.has($0) } ?? "at_ms"
            throw try fields.required(first, "").problem("a step has one trigger: at_ms, after_connect_ms / after_connections, or one of after_read, after_write, after_subscribe")
        }
        return trigger
    }

    /// A step's `expect` object: each expectation must suit the step's action.
    static func expectations(_ value: InputValue, action: Action) throws(InputError) -> [Expectation] {
        try value.object(keys: expectationKeys, "an object of expectations") { checks throws(InputError) -> [Expectation] in
            var expectations: [Expectation] = []
            if let wanted = checks.value("accept_parameters") {
                guard try wanted.bool() else { throw wanted.problem("only true can be expected (leave it out to expect nothing)") }
                guard case .updateParameters = action else { throw wanted.problem("only an \"update_parameters\" step can expect the central to accept") }
                expectations.append(.acceptParameters)
            }
            if let limit = try milliseconds(checks, "pair_within_ms", upTo: 30_000) {
                guard action == .requirePairing else {
                    throw try checks.required("pair_within_ms", "").problem("only a \"require_pairing\" step can expect the central to pair")
                }
                expectations.append(.pairWithin(milliseconds: limit))
            }
            let reencryptWithin = try milliseconds(checks, "reencrypt_within_ms", upTo: 3_600_000)
            if let wanted = checks.value("reencrypt_with_bond") {
                guard try wanted.bool() else { throw wanted.problem("only true can be expected (leave it out to expect nothing)") }
                guard action == .requirePairing || action.endsLink else {
                    throw wanted.problem("re-encryption is expected after a pairing (require_pairing) or of a reconnection (disconnect, vanish, stop_answering_att)")
                }
                expectations.append(.reencryptWithBond(withinMilliseconds: reencryptWithin ?? Expectation.defaultReencryptionMilliseconds))
            } else if reencryptWithin != nil {
                throw try checks.required("reencrypt_within_ms", "").problem("goes with \"reencrypt_with_bond\": true")
            }
            if let limit = try milliseconds(checks, "reconnect_within_ms", upTo: 3_600_000) {
                guard action.endsLink else {
                    throw try checks.required("reconnect_within_ms", "").problem("a \"\(action.word)\" step keeps the link up: there is nothing to reconnect after")
                }
                expectations.append(.reconnectWithin(milliseconds: limit))
            }
            let within = try milliseconds(checks, "rediscover_within_ms", upTo: 3_600_000)
            if let wanted = checks.value("rediscover_after_service_changed") {
                guard try wanted.bool() else {
                    throw wanted.problem("only true can be expected (leave it out to expect nothing)")
                }
                guard action == .serviceChanged else {
                    throw wanted.problem("only a \"service_changed\" step can expect re-discovery")
                }
                expectations.append(.rediscoverAfterServiceChanged(withinMilliseconds: within ?? Expectation.defaultRediscoveryMilliseconds))
            } else if within != nil {
                throw try checks.required("rediscover_within_ms", "").problem("goes with \"rediscover_after_service_changed\": true")
            }
            return expectations
        }
    }

    /// Hex text (`"0x13"`, `"13"`) or a decimal number (`19`): one of the reasons HCI Disconnect accepts. Absent: 0x13.
    static func reason(_ value: InputValue?) throws(InputError) -> HCIStatus {
        guard let value else { return .remoteUserTerminatedConnection }
        let allowed = disconnectReasons.map { "0x" + String($0, radix: 16, uppercase: true).leftPadded(2) }
        let expected = "a disconnect reason (\(allowed.joined(separator: ", ")))"
        let code: Int
        if case .number = value.node.value {
            code = try value.integer(in: 0...255, expected)
        } else {
            let text = try value.string(expected)
            let digits = text.lowercased().hasPrefix("0x") ? String(text.dropFirst(2)) : text
            guard let parsed = Int(digits, radix: 16) else { throw value.fail(expected) }
            code = parsed
        }
        guard let octet = UInt8(exactly: code), disconnectReasons.contains(octet) else { throw value.fail(expected) }
        return HCIStatus(octet)
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
