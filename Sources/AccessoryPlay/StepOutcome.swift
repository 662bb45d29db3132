/// What became of one step of the plan: when it ran, when the link ended and the accessory advertised
/// again, when the central came back, and each expectation's verdict. Times are milliseconds from the start.
package struct StepOutcome: Sendable, Hashable, Codable {
    package var name: String
    package var action: String
    package var ranAt: Double?
    package var linkEndedAt: Double?
    package var advertisedAgainAt: Double?
    package var reconnectedAt: Double?
    /// `service_changed`: the first handle of the range that changed (to 0xFFFF).
    package var changedFromHandle: UInt16?
    /// `service_changed`: when the central was told (it confirmed the indication), or its next connection
    /// when none was connected at the change.
    package var centralToldAt: Double?
    /// `service_changed`: why the central was not told, when it was not (it had not enabled the indication).
    package var notToldBecause: String?
    /// `service_changed`: the central's first discovery request reaching the changed range after it was told.
    package var rediscoveredAt: Double?
    /// `update_parameters`: whether the central accepted (nil until it answered or the wait ended), how long its
    /// answer took (ms), and what it said.
    package var parametersAccepted: Bool?
    package var parametersAnsweredAfter: Double?
    package var parametersNote: String?
    /// `notify_flood`: how many notifications went out, and how many a second.
    package var notificationsSent: Int?
    package var notificationsPerSecond: Double?
    /// `require_pairing`: whether the central paired, how long after the Security Request (ms), and how.
    package var paired: Bool?
    package var pairingTook: Double?
    package var pairingNote: String?
    /// For `reencrypt_with_bond`: the connection after the step, and when it was encrypted with the bond (or
    /// paired again instead), in ms from the start.
    package var nextConnectionAt: Double?
    package var reencryptedAt: Double?
    package var pairedAgainAt: Double?
    package var checks: [Check]

    /// One expectation, decided or not.
    package struct Check: Sendable, Hashable, Codable {
        /// The key it was written with: `reconnect_within_ms`, `rediscover_after_service_changed`.
        package var key: String
        package var limit: Double
        /// True or false once decided; nil when the run ended first.
        package var passed: Bool?
        /// What was measured (ms), when it was.
        package var measured: Double?
        package var message: String

        /// Decides the check by a measured delay (ms): passed when it is within the limit.
        mutating func measure(_ delay: Double, _ message: String) {
            measured = delay
            passed = delay <= limit
            self.message = message
        }

        /// Decides the check as failed.
        mutating func fail(_ message: String) {
            passed = false
            self.message = message
        }
    }

    /// From advertising again to the central's next connection, once both happened.
    package var reconnectDelay: Double? {
        guard let advertisedAgainAt, let reconnectedAt else { return nil }
        return reconnectedAt - advertisedAgainAt
    }

    /// From telling the central of a Service Changed to its re-discovery, once both happened.
    package var rediscoveryDelay: Double? {
        guard let centralToldAt, let rediscoveredAt else { return nil }
        return rediscoveredAt - centralToldAt
    }
}
