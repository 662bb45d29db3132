import Foundation
@testable import HILResults
import Testing

/// The report's rounding rule (`MeasuredValue`): each unit to its resolution.
@Suite struct MeasuredValueTests {
    @Test(arguments: [
        (4726.67494195, "ms", "4726.7 ms"),
        (4726.65001, "ms", "4726.7 ms"),
        (0.04, "ms", "0.0 ms"),
        (-0.04, "ms", "0.0 ms"),
        (-0.06, "ms", "-0.1 ms"),
        (4.72667494195, "s", "4.727 s"),
        (0.0123456, "s", "0.012 s"),
        (12, "s", "12.000 s"),
        (12.6, "µs", "13 µs"),
        (99.74683544, "%", "99.7 %"),
        (100, "%", "100.0 %"),
        (396.6, "count", "397"),
        (-71.4, "dBm", "-71 dBm"),
        (0.0123456, "ratio", "0.0123 ratio"),
        (12.345, "ratio", "12.3 ratio"),
        (1234.56, "ratio", "1235 ratio"),
        (0.947, "", "0.947"),
        (0, "ratio", "0 ratio"),
        (1.5e12, "ms", "1.50e+12 ms"),
        (Double.nan, "ms", "nan ms"),
        (-Double.infinity, "s", "-inf s"),
    ])
    func roundedToWhatItMeasures(value: Double, unit: String, expected: String) {
        #expect(MeasuredValue(value, unit: unit).text == expected)
    }

    /// Against Foundation's own number formatting (ICU) at the rule's decimals, away from exact ties.
    @Test func agreesWithFoundationsFormatting() {
        var checked = 0
        for index in 1...400 {
            let value = Double(index * index) * 0.618033988749 / 7 * (index.isMultiple(of: 3) ? -1 : 1)
            for unit in ["s", "ms", "%", "count", "ratio"] {
                let measured = MeasuredValue(value, unit: unit)
                let scaled = abs(value) * pow(10, Double(measured.decimals))
                guard abs(scaled - scaled.rounded(.down) - 0.5) > 1e-6 else { continue }
                let foundation = value.formatted(.number.precision(.fractionLength(measured.decimals)).grouping(.never)
                    .locale(Locale(identifier: "en_US_POSIX")))
                #expect(measured.number == foundation, "\(value) \(unit)")
                checked += 1
            }
        }
        #expect(checked > 1900)
    }

    @Test(arguments: [
        (4720.0, "ms", 20.0, "4720 ms"),
        (4726.2, "ms", 0.01, "4726.2 ms"),
        (0.5, "s", 0.5, "0.5 s"),
        (0.04, "s", 0.02, "0.04 s"),
        (1.0, "ratio", 0.005, "1.000 ratio"),
    ])
    func ticksAtTheirStepNeverFinerThanTheUnit(value: Double, unit: String, step: Double, expected: String) {
        #expect(MeasuredValue(value, unit: unit).tick(step: step) == expected)
    }

    @Test func resolutionsAndDurations() {
        #expect(MeasuredValue.resolution(of: "ms") == 0.1)
        #expect(MeasuredValue.resolution(of: "s") == 0.001)
        #expect(MeasuredValue.resolution(of: "count") == 1)
        #expect(MeasuredValue.resolution(of: "ratio") == nil)
        #expect(MeasuredValue.duration(0.84) == "0.840 s")
        #expect(MeasuredValue.duration(63.2) == "1 min 03 s")
        #expect(MeasuredValue.duration(.nan) == "nan s")
    }
}
