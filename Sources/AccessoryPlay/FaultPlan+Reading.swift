import HCI
import RigFormat

extension FaultPlan {
    /// The keys of a step.
    static let stepKeys = ["name", "at_ms", "after_connect_ms", "after_connections", "do", "reason", "advertise_after_ms", "expect"]
    /// The actions a step may do.
    static let actions = ["disconnect", "vanish", "stop_answering_att", "service_changed"]
    /// The keys of a step's `expect`.
    static let expectationKeys = ["reconnect_within_ms", "rediscover_after_service_changed", "rediscover_within_ms"]
    /// The reasons HCI Disconnect accepts (Core v5.4 Vol 4 Part E §7.1.6).
    static let disconnectReasons: [UInt8] = [0x05, 0x13, 0x14, 0x15, 0x1A, 0x29, 0x3B]

    /// Reads a plan file strictly, as rigs are read: unknown keys are errors with a did-you-mean, values out
    /// of range are named with the value as written. `fallbackName` names a plan without `"name"`.
    public static func read(file path: String, fallbackName: String) throws(RigError) -> FaultPlan {
        try RigDocument.read(file: path) { value throws(RigError) in try FaultPlan(reading: value, fallbackName: fallbackName) }
    }

    /// Reads `{"name", "description", "steps": [...]}`.
    public init(reading value: RigValue, fallbackName: String) throws(RigError) {
        self = try value.object(keys: ["$schema", "name", "description", "steps"], "a plan object") { fields throws(RigError) -> FaultPlan in
            let name = try fields.optionalString("name", "the plan's name (a non-empty string)") ?? fallbackName
            let items = try fields.required("steps", "an array of steps").array("a non-empty array of steps", nonEmpty: true)
            var steps: [Step] = []
            for (index, item) in items.enumerated() { steps.append(try Self.step(item, number: index + 1)) }
            return FaultPlan(name: name, steps: steps)
        }
    }

    static func milliseconds(_ fields: RigObject, _ key: String, upTo limit: Int = 86_400_000) throws(RigError) -> Int? {
        try fields.value(key)?.integer(in: 0...limit, "a whole number of milliseconds from 0 to \(limit)")
    }

    static func step(_ value: RigValue, number: Int) throws(RigError) -> Step {
        try value.object(keys: stepKeys, "a step object") { fields throws(RigError) -> Step in
            let actionValue = try fields.required("do", "an action (\(actions.joined(separator: ", ")))")
            let word = try actionValue.string("an action (\(actions.joined(separator: ", ")))")
            let action: Action
            switch word {
            case "disconnect":
                action = .disconnect(reason: try reason(fields.value("reason")))
            case "vanish", "stop_answering_att", "service_changed":
                if fields.has("reason") { throw try fields.required("reason", "").problem("only a \"disconnect\" step has a reason") }
                action = word == "vanish" ? .vanish : word == "service_changed" ? .serviceChanged : .stopAnsweringATT
            default:
                let hint = DidYouMean.question(for: word, among: actions).map { "; \($0)" } ?? " (known: \(actions.joined(separator: ", ")))"
                throw actionValue.problem("unknown action '\(word)'\(hint)")
            }
            let trigger: Trigger
            let atTime = try milliseconds(fields, "at_ms")
            let afterConnect = try milliseconds(fields, "after_connect_ms")
            let connections = try fields.value("after_connections")?.integer(in: 1...10_000, "a number of connections from 1 to 10000")
            if let atTime {
                if afterConnect != nil || connections != nil {
                    throw try fields.required("at_ms", "").problem("a step has one trigger: at_ms, or after_connect_ms / after_connections")
                }
                trigger = .atTime(milliseconds: atTime)
            } else if afterConnect != nil || connections != nil {
                trigger = .afterConnect(milliseconds: afterConnect ?? 0, connections: connections ?? 1)
            } else {
                throw value.problem("missing a trigger: at_ms (from the start), or after_connect_ms / after_connections (from a connection)")
            }
            if action == .stopAnsweringATT, case .atTime = trigger {
                throw try fields.required("at_ms", "").problem("stop_answering_att acts on a link: trigger it with after_connect_ms or after_connections")
            }
            if !action.endsLink, fields.has("advertise_after_ms") {
                throw try fields.required("advertise_after_ms", "").problem("a \"\(word)\" step keeps the link up: there is no advertising again to delay")
            }
            let expectations = try fields.value("expect").map { (expect: RigValue) throws(RigError) -> [Expectation] in
                try Self.expectations(expect, action: action)
            } ?? []
            let name = try fields.optionalString("name", "the step's name (a non-empty string)") ?? "step \(number): \(word)"
            return Step(name: name, trigger: trigger, action: action, advertiseAfterMilliseconds: try milliseconds(fields, "advertise_after_ms"),
                        expectations: expectations)
        }
    }

    /// A step's `expect` object: each expectation must suit the step's action.
    static func expectations(_ value: RigValue, action: Action) throws(RigError) -> [Expectation] {
        try value.object(keys: expectationKeys, "an object of expectations") { checks throws(RigError) -> [Expectation] in
            var expectations: [Expectation] = []
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
    static func reason(_ value: RigValue?) throws(RigError) -> HCIStatus {
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
