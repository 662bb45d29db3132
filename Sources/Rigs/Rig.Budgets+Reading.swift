import StrictJSON

extension Rig.Budgets {
    private typealias Table = RigFormatTable.Budgets

    /// The budgets of a rig without a `budgets` block: every field's default in the table.
    static func defaults() throws(InputError) -> Rig.Budgets {
        try Self(reading: InputValue(JSONNode(.object([]), at: JSONPosition(line: 1, column: 1)), path: "budgets"))
    }

    /// Reads `budgets`: every field optional, none clamped, each within its range in `RigFormatTable.Budgets`
    /// (durations above 0 ms and at most an hour; the connection interval 7.5…4000 ms and the supervision
    /// timeout 100…32000 ms), the supervision timeout larger than twice the interval (Core v5.4 Vol 4 Part E
    /// §7.8.12, with no peripheral latency).
    init(reading value: InputValue) throws(InputError) {
        self = try value.object(Table.shape) { fields throws(InputError) -> Self in
            func ms(_ field: JSONField) throws(InputError) -> Duration { Self.duration(milliseconds: try fields.number(field)) }
            let interval = try ms(Table.connectionIntervalMilliseconds)
            let timeout = try ms(Table.supervisionTimeoutMilliseconds)
            guard timeout > interval * 2 else {
                let blamed = fields.has(Table.supervisionTimeoutMilliseconds.key) ? Table.supervisionTimeoutMilliseconds : Table.connectionIntervalMilliseconds
                throw InputError(at: fields.path(blamed.key),
                               "the supervision timeout (\(InputValue.format((timeout / .milliseconds(1)))) ms) must be larger than twice the connection interval (\(InputValue.format((interval / .milliseconds(1)))) ms) (Core v5.4 Vol 4 Part E §7.8.12)")
            }
            var budgets = Self(advertisingAfterPowerOn: try ms(Table.advertisingAfterPowerOnMilliseconds),
                        connect: try ms(Table.connectMilliseconds), discovery: try ms(Table.discoveryMilliseconds),
                        linkLossMargin: try ms(Table.linkLossMarginMilliseconds), reconnect: try ms(Table.reconnectMilliseconds),
                        adapterReset: try ms(Table.adapterResetMilliseconds), supervisionTimeout: timeout, connectionInterval: interval,
                        stabilityCycles: try fields.integer(Table.stabilityCycles),
                        connectP95: try ms(Table.connectP95Milliseconds), discoveryP95: try ms(Table.discoveryP95Milliseconds),
                        minimumSuccessRate: try fields.number(Table.minimumSuccessRate))
            budgets.pairing = try ms(Table.pairingMilliseconds)
            budgets.encryption = try ms(Table.encryptionMilliseconds)
            return budgets
        }
    }

    /// Milliseconds as a duration, to the microsecond (7.5 ms stays 7.5 ms).
    static func duration(milliseconds: Double) -> Duration { .microseconds(Int64((milliseconds * 1000).rounded())) }
}
