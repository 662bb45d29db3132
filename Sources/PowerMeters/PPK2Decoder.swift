/// Turns a PPK2's byte stream into currents: 4-octet words split anywhere across reads, each calibrated for
/// its range, with the filter the nRF Connect Power Profiler (and ppk2-api after it) applies after a range
/// change — for a few samples after the PPK2 switches shunt, a sample is replaced by a rolling average, because
/// the switch itself shows as a spike. Each word carries a counter, one more each sample modulo 64; where it
/// jumps, the samples in between were lost between the PPK2 and the host, and each is replaced by the sample
/// before the gap, so that every sample after it keeps its place in time (the nRF Connect Power Profiler reads
/// the counter so and puts empty samples in their place). A loss of 64 samples or more at once reads as its
/// remainder modulo 64.
package struct PPK2Decoder: Sendable {
    package let calibration: PPK2Calibration
    /// The device's supply in volts (the regulator's in source mode, the supply's in ampere mode).
    package let supplyVolts: Double

    /// Octets of a word the last read ended in the middle of.
    private var partial: [UInt8] = []
    /// The filter's rolling averages, valid once a sample has been seen; `rollingAverageHigh` is the slower
    /// one used while the PPK2 is on its least sensitive range.
    private var rollingAverage = 0.0
    private var rollingAverageHigh = 0.0
    private var previousRange = -1
    private var samplesSinceRangeChange = 0
    private var filteredAhead = 0
    /// The counter the next word should carry (nil before the first word), and the sample before it.
    private var expectedCounter: Int?
    private var previous: PPK2Sample?
    /// The samples the counter said were lost so far, each replaced by the sample before its gap.
    package private(set) var lostSamples = 0
    /// Each range's calibration with the supply's term worked out, for `amperes`.
    private let terms: [PPK2Calibration.Terms]

    /// The filter's weights and length, as the Power Profiler's.
    private static let alpha = 0.18
    private static let alphaHigh = 0.06
    private static let filteredSamples = 3

    package init(calibration: PPK2Calibration, supplyMillivolts: Int) {
        self.calibration = calibration
        self.supplyVolts = Double(supplyMillivolts) / 1000
        terms = calibration.terms(supplyVolts: supplyVolts)
    }

    /// The samples in `octets`, the stream's next read. Throws `PowerMeterError(.protocolViolation)` for a word
    /// whose range bits name no range (5–7): the PPK2 reports a range error so, and no current can be read from it.
    /// A PPK2 sends 400,000 octets a second: the words are read through one buffer pointer, not octet by octet.
    package mutating func decode(_ octets: some Collection<UInt8>) throws(PowerMeterError) -> [PPK2Sample] {
        var gaps: [Range<Int>] = []
        return try decode(octets, gaps: &gaps)
    }

    /// The samples in `octets`, as `decode(_:)`, appending to `gaps` where in them the samples stand that stand in
    /// for samples lost (one range a gap in the counter, indices into the samples returned).
    package mutating func decode(_ octets: some Collection<UInt8>, gaps: inout [Range<Int>]) throws(PowerMeterError) -> [PPK2Sample] {
        var bytes = partial
        bytes.append(contentsOf: octets)
        let words = bytes.count / 4
        partial = Array(bytes[(words * 4)...])
        var failure: PowerMeterError?
        let samples = bytes.withUnsafeBytes { raw in
            terms.withUnsafeBufferPointer { terms in
                var samples: [PPK2Sample] = []
                samples.reserveCapacity(words)
                for index in 0..<words {
                    let value = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
                    let word = PPK2Word(value)
                    do throws(PowerMeterError) {
                        let next = try sample(word, raw: value, terms: terms)
                        if let expected = expectedCounter, word.counter != expected, let previous {
                            let lost = (word.counter - expected) & 0x3F
                            lostSamples += lost
                            gaps.append(samples.count..<samples.count + lost)
                            samples.append(contentsOf: repeatElement(previous, count: lost))
                        }
                        expectedCounter = (word.counter + 1) & 0x3F
                        previous = next
                        samples.append(next)
                    } catch { failure = error; break }
                }
                return samples
            }
        }
        if let failure { throw failure }
        return samples
    }

    private mutating func sample(_ word: PPK2Word, raw: UInt32, terms: UnsafeBufferPointer<PPK2Calibration.Terms>) throws(PowerMeterError) -> PPK2Sample {
        guard word.range <= 4 else {
            throw PowerMeterError(.protocolViolation, "PPK2 range error: sample 0x\(String(raw, radix: 16)) names range \(word.range) (the PPK2 has ranges 0 to 4)")
        }
        var amperes = terms[word.range].amperes(counts: Double(word.counts))
        let before = (rollingAverage, rollingAverageHigh)
        let first = previousRange < 0
        rollingAverage = first ? amperes : Self.alpha * amperes + (1 - Self.alpha) * rollingAverage
        rollingAverageHigh = first ? amperes : Self.alphaHigh * amperes + (1 - Self.alphaHigh) * rollingAverageHigh
        let previous = first ? word.range : previousRange
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
                amperes = rollingAverageHigh
            } else {
                amperes = rollingAverage
            }
            filteredAhead -= 1
        }
        previousRange = word.range
        return PPK2Sample(microamperes: amperes * 1_000_000, range: word.range, logic: word.logic)
    }
}
