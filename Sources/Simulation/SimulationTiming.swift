/// The knobs of simulated time: how long the things take that no HCI parameter sets, and a scale for the
/// durations HCI parameters do set.
///
/// Over-the-air durations come from the hosts' own parameters (advertising interval, connection interval,
/// supervision timeout), so the host code under test chooses them as it would on a real radio; short
/// realistic values (advertising 20–100 ms, `ConnectionParameters()`'s 30–50 ms interval and 420 ms
/// supervision timeout) already make a world fast: a peer's power-off is reported after one supervision
/// timeout. `timeScale` multiplies every such duration (0.01 runs a 420 ms supervision
/// timeout in 4.2 ms) for benchmarks and soak runs; the event loop fires timers to the nanosecond on Linux
/// (timerfd), so scaled durations stay as scaled (elsewhere they round up to whole milliseconds).
package struct SimulationTiming: Sendable, Hashable {
    /// Which time the world runs on.
    package enum Clock: String, Sendable, Hashable, CaseIterable {
        /// Virtual time (`VirtualTime`): while a drive is under way, time jumps to the next event whenever
        /// every loop of the world waits, so a run takes as long as its computation. Durations measured on
        /// the world's clock are as at real time. The default of a rig's simulated bench.
        case virtual
        /// Real time, for a world that mixes in real parts (the served air, whose hosts are other processes).
        case real
    }

    /// Which time the world runs on; `.real` unless asked (a rig's simulated bench asks for `.virtual`).
    package var clock: Clock
    /// Multiplies advertising, connection and supervision durations (and advDelay). 1 = real time;
    /// 0.001…1000 (a rig file outside that range is refused).
    package var timeScale: Double
    /// The upper bound of the random advDelay added to each advertising interval (Core v5.4 Vol 6 Part B
    /// §4.4.2.2.1: 0–10 ms), before scaling.
    package var maximumAdvertisingDelayMilliseconds: Double
    /// How long an adapter "USB reset" keeps the controller away before it comes back fresh.
    package var usbResetDelayMilliseconds: Double
    /// Each advertising report's RSSI is the advertiser's configured RSSI plus a uniform jitter of ± this
    /// many dB.
    package var rssiJitter: Int
    /// How many connection events after LE Connection Update the new parameters take effect (the spec's
    /// instant is at least 6 events ahead, Vol 6 Part B §5.1.1).
    package var connectionUpdateInstantEvents: Int
    /// Seeds the air's random numbers (advDelay, RSSI jitter, scan duty cycle) for a reproducible run; nil
    /// seeds from the system generator.
    package var seed: UInt64?

    package init(timeScale: Double = 1, maximumAdvertisingDelayMilliseconds: Double = 10, usbResetDelayMilliseconds: Double = 50,
                rssiJitter: Int = 2, connectionUpdateInstantEvents: Int = 6, seed: UInt64? = nil, clock: Clock = .real) {
        self.clock = clock
        self.timeScale = timeScale
        self.maximumAdvertisingDelayMilliseconds = maximumAdvertisingDelayMilliseconds
        self.usbResetDelayMilliseconds = usbResetDelayMilliseconds
        self.rssiJitter = rssiJitter
        self.connectionUpdateInstantEvents = connectionUpdateInstantEvents
        self.seed = seed
    }

    /// Real-time timings with the defaults above.
    package static let realTime = SimulationTiming()

    /// `timeScale` within its bounds (a NaN or non-positive scale means real time).
    var effectiveTimeScale: Double {
        guard timeScale.isFinite, timeScale > 0 else { return 1 }
        return min(max(timeScale, 0.001), 1000)
    }

    /// A duration the air runs, scaled.
    func scaled(_ duration: Duration) -> Duration { duration.multiplied(by: effectiveTimeScale) }

    /// The USB reset delay as a duration (not scaled: it is the adapter's, not the air's).
    var usbResetDelay: Duration { Duration.milliseconds(1).multiplied(by: max(0, usbResetDelayMilliseconds)) }

    /// advDelay's upper bound, scaled.
    var maximumAdvertisingDelay: Duration {
        scaled(Duration.milliseconds(1).multiplied(by: max(0, maximumAdvertisingDelayMilliseconds)))
    }
}
