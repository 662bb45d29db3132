import GATT
import RigFormat

extension SimulatedAccessoryDescription {
    /// Reads an accessory's `simulated` block: `controller` and `name` required; `services` (standard
    /// profile names), `advertisingIntervalMilliseconds` (20…10240, Core v5.4 Vol 6 Part B §4.4.2.2),
    /// `bootDelayMilliseconds` (0…60000) and `faults` optional. Its security is the rig accessory's.
    public init(reading value: RigValue) throws(RigError) {
        self = try value.object(keys: ["controller", "name", "services", "advertisingIntervalMilliseconds", "bootDelayMilliseconds", "faults"]) {
            fields throws(RigError) -> Self in
            let controller = try fields.string("controller", "the name of a simulated controller")
            let name = try fields.string("name", "the advertised local name")
            var services: [StandardProfile] = []
            if let list = fields.value("services") {
                let known = StandardProfile.allCases.map(\.rawValue)
                for item in try list.array("an array of profile names (\(known.joined(separator: ", ")))") {
                    let text = try item.string("a profile name (\(known.joined(separator: ", ")))")
                    guard let profile = StandardProfile(name: text) else {
                        let hint = DidYouMean.closest(to: text, among: known).map { "; did you mean \($0)?" } ?? " (known: \(known.joined(separator: ", ")))"
                        throw item.problem("unknown service '\(JSONValue.excerpt(text))'\(hint)")
                    }
                    guard !services.contains(profile) else { throw item.fail("each service once") }
                    services.append(profile)
                }
            }
            return Self(controller: controller, name: name, services: services,
                        advertisingIntervalMilliseconds: try fields.number("advertisingIntervalMilliseconds", in: 20...10_240,
                            "a number of milliseconds from 20 to 10240 (Core v5.4 Vol 6 Part B §4.4.2.2)", default: 40),
                        bootDelayMilliseconds: try fields.number("bootDelayMilliseconds", in: 0...60_000,
                            "a number of milliseconds from 0 to 60000", default: 20),
                        faults: try fields.value("faults").map { (value: RigValue) throws(RigError) -> SimulatedAccessoryFaults in
                            try SimulatedAccessoryFaults(reading: value)
                        } ?? SimulatedAccessoryFaults())
        }
    }
}

extension SimulatedAccessoryFaults {
    /// Reads `faults`: every key optional, a misspelt one an error (a fault that is silently never
    /// injected would make its suite pass for the wrong reason).
    public init(reading value: RigValue) throws(RigError) {
        self = try value.object(keys: ["stopsAdvertisingAfterPowerCycles", "dropsLinkAfterMilliseconds", "slowATTMilliseconds",
                                       "rebootsOnWrite", "refusesConnections", "forgetsBondsOnPowerCycle",
                                       "servesProtectedUnencrypted", "rejectsPairing", "answersWithWrongLTK", "maliciousATT"]) { fields throws(RigError) -> Self in
            let milliseconds = "a number of milliseconds above 0 and at most 600000"
            return Self(
                stopsAdvertisingAfterPowerCycles: try fields.value("stopsAdvertisingAfterPowerCycles")?.integer(in: 1...1_000_000),
                dropsLinkAfterMilliseconds: try fields.value("dropsLinkAfterMilliseconds")?.number(milliseconds) { $0 > 0 && $0 <= 600_000 },
                slowATTMilliseconds: try fields.value("slowATTMilliseconds")?.number(milliseconds) { $0 > 0 && $0 <= 600_000 },
                rebootsOnWrite: try fields.bool("rebootsOnWrite", default: false),
                refusesConnections: try fields.bool("refusesConnections", default: false),
                forgetsBondsOnPowerCycle: try fields.bool("forgetsBondsOnPowerCycle", default: false),
                servesProtectedUnencrypted: try fields.bool("servesProtectedUnencrypted", default: false),
                rejectsPairing: try fields.bool("rejectsPairing", default: false),
                answersWithWrongLTK: try fields.bool("answersWithWrongLTK", default: false),
                maliciousATT: try fields.value("maliciousATT").map { (item: RigValue) throws(RigError) -> SimulatedMaliciousATT in
                    let known = SimulatedMaliciousATT.allCases.map(\.rawValue)
                    let text = try item.string("one of \(known.joined(separator: ", "))")
                    guard let behaviour = SimulatedMaliciousATT(rawValue: text) else {
                        let hint = DidYouMean.closest(to: text, among: known).map { "; did you mean \($0)?" } ?? " (known: \(known.joined(separator: ", ")))"
                        throw item.problem("unknown malicious ATT behaviour '\(JSONValue.excerpt(text))'\(hint)")
                    }
                    return behaviour
                })
        }
    }
}
