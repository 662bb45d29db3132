import RigFormat

extension Rig.Budgets {
    /// The budgets of a rig without a `budgets` block (and of each field a `budgets` block leaves out).
    static let defaults = Rig.Budgets(advertisingAfterPowerOn: .milliseconds(3000), connect: .milliseconds(3000), discovery: .milliseconds(5000),
                  linkLossMargin: .milliseconds(1000), reconnect: .milliseconds(5000), adapterReset: .milliseconds(5000),
                  supervisionTimeout: .milliseconds(420), connectionInterval: .milliseconds(30), stabilityCycles: 10,
                  connectP95: .milliseconds(3000), discoveryP95: .milliseconds(5000), minimumSuccessRate: 1)

    /// Reads `budgets`: every field optional, none clamped. Durations are milliseconds above 0 and at most
    /// an hour; the connection interval 7.5…4000 ms and the supervision timeout 100…32000 ms, larger than
    /// twice the interval (Core v5.4 Vol 4 Part E §7.8.12, with no peripheral latency).
    init(reading value: RigValue) throws(RigError) {
        let keys = ["advertisingAfterPowerOnMilliseconds", "connectMilliseconds", "discoveryMilliseconds", "linkLossMarginMilliseconds",
                    "reconnectMilliseconds", "adapterResetMilliseconds", "supervisionTimeoutMilliseconds", "connectionIntervalMilliseconds",
                    "stabilityCycles", "connectP95Milliseconds", "discoveryP95Milliseconds", "minimumSuccessRate",
                    "pairingMilliseconds", "encryptionMilliseconds"]
        self = try value.object(keys: keys) { fields throws(RigError) -> Self in
            let d = Self.defaults
            func ms(_ key: String, _ fallback: Duration) throws(RigError) -> Duration {
                guard let value = fields.value(key) else { return fallback }
                let number = try value.number("a number of milliseconds above 0 and at most 3600000") { $0 > 0 && $0 <= 3_600_000 }
                return Self.duration(milliseconds: number)
            }
            let interval = try fields.value("connectionIntervalMilliseconds").map { (value: RigValue) throws(RigError) -> Duration in
                Self.duration(milliseconds: try value.number(in: 7.5...4000, "a number of milliseconds from 7.5 to 4000 (Core v5.4 Vol 6 Part B §4.5.1)"))
            } ?? d.connectionInterval
            let timeoutValue = fields.value("supervisionTimeoutMilliseconds")
            let timeout = try timeoutValue.map { (value: RigValue) throws(RigError) -> Duration in
                Self.duration(milliseconds: try value.number(in: 100...32_000, "a number of milliseconds from 100 to 32000 (Core v5.4 Vol 6 Part B §4.5.2)"))
            } ?? d.supervisionTimeout
            guard timeout > interval * 2 else {
                throw RigError(at: fields.path(timeoutValue == nil ? "connectionIntervalMilliseconds" : "supervisionTimeoutMilliseconds"),
                               "the supervision timeout (\(RigValue.format((timeout / .milliseconds(1)))) ms) must be larger than twice the connection interval (\(RigValue.format((interval / .milliseconds(1)))) ms) (Core v5.4 Vol 4 Part E §7.8.12)")
            }
            var budgets = Self(advertisingAfterPowerOn: try ms("advertisingAfterPowerOnMilliseconds", d.advertisingAfterPowerOn),
                        connect: try ms("connectMilliseconds", d.connect), discovery: try ms("discoveryMilliseconds", d.discovery),
                        linkLossMargin: try ms("linkLossMarginMilliseconds", d.linkLossMargin), reconnect: try ms("reconnectMilliseconds", d.reconnect),
                        adapterReset: try ms("adapterResetMilliseconds", d.adapterReset), supervisionTimeout: timeout, connectionInterval: interval,
                        stabilityCycles: try fields.integer("stabilityCycles", in: 1...100_000, default: d.stabilityCycles),
                        connectP95: try ms("connectP95Milliseconds", d.connectP95), discoveryP95: try ms("discoveryP95Milliseconds", d.discoveryP95),
                        minimumSuccessRate: try fields.number("minimumSuccessRate", in: 0...1, "a fraction from 0 to 1", default: d.minimumSuccessRate))
            budgets.pairing = try ms("pairingMilliseconds", d.pairing)
            budgets.encryption = try ms("encryptionMilliseconds", d.encryption)
            return budgets
        }
    }

    /// Milliseconds as a duration, to the microsecond (7.5 ms stays 7.5 ms).
    static func duration(milliseconds: Double) -> Duration { .microseconds(Int64((milliseconds * 1000).rounded())) }
}
