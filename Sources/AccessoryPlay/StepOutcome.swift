/// What became of one step of the plan: when it ran, when the link ended and the accessory advertised
/// again, when the central came back, and each expectation's verdict. Times are milliseconds from the start.
public struct StepOutcome: Sendable, Hashable, Codable {
    public var name: String
    public var action: String
    public var ranAt: Double?
    public var linkEndedAt: Double?
    public var advertisedAgainAt: Double?
    public var reconnectedAt: Double?
    /// `service_changed`: the first handle of the range that changed (to 0xFFFF).
    public var changedFromHandle: UInt16?
    /// `service_changed`: when the central was told (it confirmed the indication), or its next connection
    /// when none was connected at the change.
    public var centralToldAt: Double?
    /// `service_changed`: why the central was not told, when it was not (it had not enabled the indication).
    public var notToldBecause: String?
    /// `service_changed`: the central's first discovery request reaching the changed range after it was told.
    public var rediscoveredAt: Double?
    /// `update_parameters`: whether the central accepted (nil until it answered or the wait ended), how long its
    /// answer took (ms), and what it said.
    public var parametersAccepted: Bool?
    public var parametersAnsweredAfter: Double?
    public var parametersNote: String?
    /// `notify_flood`: how many notifications went out, and how many a second.
    public var notificationsSent: Int?
    public var notificationsPerSecond: Double?
    /// `require_pairing`: whether the central paired, how long after the Security Request (ms), and how.
    public var paired: Bool?
    public var pairingTook: Double?
    public var pairingNote: String?
    /// For `reencrypt_with_bond`: the connection after the step, and when it was encrypted with the bond (or
    /// paired again instead), in ms from the start.
    public var nextConnectionAt: Double?
    public var reencryptedAt: Double?
    public var pairedAgainAt: Double?
    public var checks: [Check]

    /// One expectation, decided or not.
    public struct Check: Sendable, Hashable, Codable {
        /// The key it was written with: `reconnect_within_ms`, `rediscover_after_service_changed`.
        public var key: String
        public var limit: Double
        /// True or false once decided; nil when the run ended first.
        public var passed: Bool?
        /// What was measured (ms), when it was.
        public var measured: Double?
        public var message: String
    }

    /// From advertising again to the central's next connection, once both happened.
    public var reconnectDelay: Double? {
        guard let advertisedAgainAt, let reconnectedAt else { return nil }
        return reconnectedAt - advertisedAgainAt
    }

    /// From telling the central of a Service Changed to its re-discovery, once both happened.
    public var rediscoveryDelay: Double? {
        guard let centralToldAt, let rediscoveredAt else { return nil }
        return rediscoveredAt - centralToldAt
    }
}
