/// What one throughput run moved and what the link had settled on: the figures `hil bench --json` prints
/// and the link-layer suites hold an accessory to.
package struct ThroughputReport: Sendable, Hashable, Codable {
    /// "notify" (the peer's notifications to us) or "write" (our Write Without Response to the peer).
    package var mode: String
    /// Octets of packets carried (ATT values: Bumble's bench counts the same).
    package var bytes: Int
    /// Packets carried, and how many sequence numbers were missing between them.
    package var packets: Int
    package var sequenceGaps: Int
    /// From the first packet to the last, on the run's clock.
    package var seconds: Double
    package var bitsPerSecond: Double
    /// The link as it carried them: ATT_MTU, PHY ("1M", "2M", "coded"), data length (octets we transmit),
    /// connection interval.
    package var mtu: Int
    package var phy: String
    package var dataLength: Int
    package var intervalMilliseconds: Double
    /// How long packets took (notify: receipt against the sender's timestamp, relative to the run's start;
    /// write: how long each write waited in our host for the controller), median and 95th percentile.
    package var latencyMillisecondsP50: Double
    package var latencyMillisecondsP95: Double
    /// Whether the peer acknowledged the last packet (Bumble's ACK), when one was sent.
    package var acknowledged: Bool?

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
