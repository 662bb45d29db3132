/// A PPK2's calibration for its five measurement ranges (0, the most sensitive, to 4): the shunt resistance
/// `r` in ohms, the offset `o` in ADC counts, the gains `gs` (quadratic), `gi` (linear) and `ug` (the user's
/// gain), and the voltage-proportional `s` and constant `i` corrections. The PPK2 sends it as its metadata;
/// a range it leaves out keeps the defaults the nRF Connect Power Profiler starts from.
package struct PPK2Calibration: Equatable, Sendable {
    package struct Range: Equatable, Sendable {
        package var r: Double
        package var gs: Double = 1
        package var gi: Double = 1
        package var o: Double = 0
        package var s: Double = 0
        package var i: Double = 0
        package var ug: Double = 1
    }

    /// Index 0 to 4: the ranges as the sample's range bits number them.
    package var ranges: [Range]

    /// The nRF Connect Power Profiler's defaults: nominal shunts, unit gains, no offsets.
    package static let defaults = PPK2Calibration(ranges: [1031.64, 101.65, 10.15, 0.94, 0.043].map { Range(r: $0) })

    /// The ADC's volts per count: 1.8 V full scale over 163,840 (the 14-bit reading is scaled by 4 first).
    package static let voltsPerCount = 1.8 / 163_840

    /// The current in amperes for `counts` (the 14-bit reading times 4) measured on `range` with the device's
    /// supply at `supplyVolts`: the shunt's voltage over its resistance, corrected by the range's gains.
    package func amperes(counts: Double, range: Int, supplyVolts: Double) -> Double {
        Terms(ranges[range], supplyVolts: supplyVolts).amperes(counts: counts)
    }

    /// One range's calibration at a given supply, its factors worked out once for a stream of samples:
    /// `amperes` is the same formula, to the last bit.
    package struct Terms: Sendable {
        let offset, amperesPerCount, quadratic, linear, constant, gain: Double

        init(_ range: Range, supplyVolts: Double) {
            offset = range.o
            amperesPerCount = PPK2Calibration.voltsPerCount / range.r
            quadratic = range.gs
            linear = range.gi
            constant = range.s * supplyVolts + range.i
            gain = range.ug
        }

        package func amperes(counts: Double) -> Double {
            let uncorrected = (counts - offset) * amperesPerCount
            return gain * (uncorrected * (quadratic * uncorrected + linear) + constant)
        }
    }

    /// Every range's `Terms` at `supplyVolts`, indexed by range.
    package func terms(supplyVolts: Double) -> [Terms] {
        ranges.map { Terms($0, supplyVolts: supplyVolts) }
    }
}
