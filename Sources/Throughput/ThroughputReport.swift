/// What one throughput run moved and what the link had settled on: the figures `hil bench --json` prints
/// and the link-layer suites hold an accessory to.
public struct ThroughputReport: Sendable, Hashable, Codable {
    /// "notify" (the peer's notifications to us) or "write" (our Write Without Response to the peer).
    public var mode: String
    /// Octets of packets carried (ATT values: Bumble's bench counts the same).
    public var bytes: Int
    /// Packets carried, and how many sequence numbers were missing between them.
    public var packets: Int
    public var sequenceGaps: Int
    /// From the first packet to the last, on the run's clock.
    public var seconds: Double
    public var bitsPerSecond: Double
    /// The link as it carried them: ATT_MTU, PHY ("1M", "2M", "coded"), data length (octets we transmit),
    /// connection interval.
    public var mtu: Int
    public var phy: String
    public var dataLength: Int
    public var intervalMilliseconds: Double
    /// How long packets took (notify: receipt against the sender's timestamp, relative to the run's start;
    /// write: how long each write waited in our host for the controller), median and 95th percentile.
    public var latencyMillisecondsP50: Double
    public var latencyMillisecondsP95: Double
    /// Whether the peer acknowledged the last packet (Bumble's ACK), when one was sent.
    public var acknowledged: Bool?

    enum CodingKeys: String, CodingKey {
        case mode, bytes, packets, seconds, mtu, phy, acknowledged
        case sequenceGaps = "sequence_gaps"
        case bitsPerSecond = "bits_per_second"
        case dataLength = "data_length"
        case intervalMilliseconds = "interval_ms"
        case latencyMillisecondsP50 = "latency_ms_p50"
        case latencyMillisecondsP95 = "latency_ms_p95"
    }
}
