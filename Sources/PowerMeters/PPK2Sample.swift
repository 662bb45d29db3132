/// One of a PPK2's samples as it streams them, 100,000 a second: a little-endian 32-bit word holding the ADC
/// reading (bits 0–13), the measurement range that took it (bits 14–16; 0 is the most sensitive, 4 the
/// least), a sample counter (bits 18–23, one more each sample modulo 64) and the eight logic inputs (bits 24–31).
package struct PPK2Sample: Equatable, Sendable {
    /// The current the sample stands for, in microamperes (after calibration and the range-change filter).
    package var microamperes: Double
    /// The range the PPK2 measured it on (0…4).
    package var range: Int
    /// The logic inputs D0–D7, D0 the least significant bit.
    package var logic: UInt8

    /// The PPK2's sample rate.
    package static let perSecond = 100_000
}

/// The fields of one raw sample word.
package struct PPK2Word: Equatable, Sendable {
    package var counts: Int
    package var range: Int
    /// The sample counter: a gap in it is samples lost on the way (the nRF Connect Power Profiler reads it so).
    package var counter: Int
    package var logic: UInt8

    /// The fields of `word`: the 14-bit reading scaled by 4 into counts, as the PPK2's own software scales it.
    package init(_ word: UInt32) {
        counts = Int(word & 0x3FFF) * 4
        range = Int((word >> 14) & 0x7)
        counter = Int((word >> 18) & 0x3F)
        logic = UInt8(truncatingIfNeeded: word >> 24)
    }
}
