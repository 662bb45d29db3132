import HILResults

/// Counts what a receiver of a bench stream got: packets, octets, missing sequence numbers, and each
/// packet's delay relative to the first (receipt time against the sender's timestamp), within a window that
/// starts at the first SEQUENCE packet.
package struct BenchMeter: Sendable {
    /// The window's length: packets after it are not counted (nil: until the sender's last packet).
    package let window: Duration?
    package private(set) var bytes = 0
    package private(set) var packets = 0
    package private(set) var gaps = 0
    package private(set) var first: ContinuousClock.Instant?
    package private(set) var latest: ContinuousClock.Instant?
    package private(set) var lastSeen = false
    private var firstTimestamp: UInt32 = 0
    private var expected: UInt32?
    private var delays: [Double] = []

    package init(window: Duration?) { self.window = window }

    /// What a receiver should do after a packet.
    package enum Outcome: Sendable, Equatable {
        /// Keep receiving.
        case more
        /// The window is full: stop.
        case windowEnded
        /// The sender's last packet: acknowledge it with this ACK, then stop.
        case last(BenchPacket)
    }

    /// One received value at `instant`.
    package mutating func received(_ value: [UInt8], at instant: ContinuousClock.Instant) -> Outcome {
        guard let packet = BenchPacket(decoding: value) else { return .more }
        switch packet {
        case .reset:
            self = BenchMeter(window: window)
            return .more
        case .ack:
            return .more
        case .sequence(let number, let timestamp, let last, _):
            if let first, let window, first.duration(to: instant) > window { return .windowEnded }
            if first == nil {
                first = instant
                firstTimestamp = timestamp
            }
            // Missing numbers count one each; a repeated or out-of-order one counts once.
            if let expected, number != expected { gaps += number > expected ? Int(number - expected) : 1 }
            expected = number &+ 1
            latest = instant
            bytes += value.count
            packets += 1
            if let first {
                let elapsed = first.duration(to: instant)
                let sent = Double(timestamp &- firstTimestamp) / 1_000
                delays.append(Self.milliseconds(elapsed) - sent)
            }
            if last {
                lastSeen = true
                return .last(.ack(number: number, last: true))
            }
            return .more
        }
    }

    /// The time the counted packets span: first to last packet when the sender ended the run, else the
    /// window (a stream that stalls counts its silence).
    package func seconds(endedAt end: ContinuousClock.Instant) -> Double {
        guard let first else { return 0 }
        if lastSeen, let latest { return Self.milliseconds(first.duration(to: latest)) / 1_000 }
        let span = first.duration(to: end)
        return Self.milliseconds(window.map { min($0, span) } ?? span) / 1_000
    }

    /// Median and 95th percentile of the packets' delays relative to the first packet, in milliseconds
    /// (never below zero: a packet that came early against its timestamp came with no delay).
    package var latencyPercentiles: (p50: Double, p95: Double) {
        let shifted = delays.map { max(0, $0) }
        let percentiles = SampleStatistics.percentiles(shifted)
        return (percentiles.p50, percentiles.p95)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
    }
}
