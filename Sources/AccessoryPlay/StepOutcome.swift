/// What became of one step of the plan: when it ran, when the link ended and the accessory advertised
/// again, when the central came back, and each expectation's verdict. Times are milliseconds from the start.
public struct StepOutcome: Sendable, Hashable, Codable {
    public var name: String
    public var action: String
    public var ranAt: Double?
    public var linkEndedAt: Double?
    public var advertisedAgainAt: Double?
    public var reconnectedAt: Double?
    public var checks: [Check]

    /// One expectation, decided or not.
    public struct Check: Sendable, Hashable, Codable {
        /// The key it was written with: `reconnect_within_ms`.
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
}
