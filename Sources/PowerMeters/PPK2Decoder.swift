/// Turns a PPK2's byte stream into currents: 4-octet words split anywhere across reads, each calibrated for
/// its range, with the filter the nRF Connect Power Profiler (and ppk2-api after it) applies after a range
/// change — for a few samples after the PPK2 switches shunt, a sample is replaced by a rolling average, because
/// the switch itself shows as a spike.
package struct PPK2Decoder: Sendable {
    package let calibration: PPK2Calibration
    /// The device's supply in volts (the regulator's in source mode, the supply's in ampere mode).
    package let supplyVolts: Double

    /// Octets of a word the last read ended in the middle of.
    private var partial: [UInt8] = []
    private var rollingAverage: Double?
    /// The slower average used while the PPK2 is on its least sensitive range.
    private var rollingAverageHigh: Double?
    private var previousRange: Int?
    private var samplesSinceRangeChange = 0
    private var filteredAhead = 0

    /// The filter's weights and length, as the Power Profiler's.
    private static let alpha = 0.18
    private static let alphaHigh = 0.06
    private static let filteredSamples = 3

    package init(calibration: PPK2Calibration, supplyMillivolts: Int) {
        self.calibration = calibration
        self.supplyVolts = Double(supplyMillivolts) / 1000
    }

    /// The samples in `octets`, the stream's next read. Throws `PowerMeterError(.protocolViolation)` for a word
    /// whose range bits name no range (5–7): the PPK2 reports a range error so, and no current can be read from it.
    package mutating func decode(_ octets: some Collection<UInt8>) throws(PowerMeterError) -> [PPK2Sample] {
        var samples: [PPK2Sample] = []
        samples.reserveCapacity((partial.count + octets.count) / 4)
        var word: [UInt8] = partial
        partial = []
        for octet in octets {
            word.append(octet)
            guard word.count == 4 else { continue }
            let value = UInt32(word[0]) | UInt32(word[1]) << 8 | UInt32(word[2]) << 16 | UInt32(word[3]) << 24
            word.removeAll(keepingCapacity: true)
            samples.append(try sample(PPK2Word(value), raw: value))
        }
        partial = word
        return samples
    }

    private mutating func sample(_ word: PPK2Word, raw: UInt32) throws(PowerMeterError) -> PPK2Sample {
        guard word.range <= 4 else {
            throw PowerMeterError(.protocolViolation, "PPK2 range error: sample 0x\(String(raw, radix: 16)) names range \(word.range) (the PPK2 has ranges 0 to 4)")
        }
        var amperes = calibration.amperes(counts: Double(word.counts), range: word.range, supplyVolts: supplyVolts)
        let before = (rollingAverage, rollingAverageHigh)
        rollingAverage = rollingAverage.map { Self.alpha * amperes + (1 - Self.alpha) * $0 } ?? amperes
        rollingAverageHigh = rollingAverageHigh.map { Self.alphaHigh * amperes + (1 - Self.alphaHigh) * $0 } ?? amperes
        let previous = previousRange ?? word.range
        if previous != word.range || filteredAhead > 0 {
            if previous != word.range {
                samplesSinceRangeChange = 0
                filteredAhead = Self.filteredSamples
            } else {
                samplesSinceRangeChange += 1
            }
            if word.range == 4 {
                // The first samples on the highest range keep the averages from before the switch.
                if samplesSinceRangeChange < 2 {
                    rollingAverage = before.0
                    rollingAverageHigh = before.1
                }
                amperes = rollingAverageHigh ?? amperes
            } else {
                amperes = rollingAverage ?? amperes
            }
            filteredAhead -= 1
        }
        previousRange = word.range
        return PPK2Sample(microamperes: amperes * 1_000_000, range: word.range, logic: word.logic)
    }
}
