import Foundation

/// A number as report.html shows it: rounded to what it measures. This is the one place the rule is
/// written; every number on the page (values, budgets, percentiles, durations, offsets, histogram and
/// timeline axes) goes through it.
///
/// The rule, by unit:
/// - `s`: to the millisecond — `4.727 s`;
/// - `ms`: to 0.1 ms — `4726.7 ms`;
/// - `µs` or `us`: whole microseconds;
/// - `%`: to 0.1 % — `99.5 %`;
/// - `count` (shown without a unit), `samples`, `bytes`, `B`, `packets`, `dBm`: whole numbers;
/// - any other unit (a `ratio`, none): three significant digits, whole units never rounded away —
///   `0.947`, `12.3`, `1234`.
///
/// Decimals are fixed (trailing zeros kept) so a column of one unit lines up and shows its resolution.
/// Magnitudes of 10⁹ and more are written in exponent form (`1.23e+12`); NaN and infinities as `nan`,
/// `inf`, `-inf`. An axis tick is written at its step's precision (`0.5 s`, `4720 ms`), never finer
/// than the unit's resolution: `resolution(of:)` is the smallest step an axis may take.
public struct MeasuredValue: Sendable, Hashable {
    public var value: Double
    public var unit: String

    public init(_ value: Double, unit: String) {
        self.value = value
        self.unit = unit
    }

    /// The number with its unit: `4726.7 ms`, `99.5 %`, `12` (a count).
    public var text: String { withUnit(number) }

    /// The number alone, rounded by the rule.
    public var number: String { Self.format(value, decimals: decimals) }

    /// The decimals the rule gives this value.
    public var decimals: Int {
        if let fixed = Self.fixedDecimals[unit] { return fixed }
        guard value.isFinite, value != 0 else { return 0 }
        return Swift.min(12, Swift.max(0, 2 - Int(floor(log10(abs(value))))))
    }

    /// An axis tick at `step`, with its unit: as many decimals as the step needs, no more than the unit allows.
    public func tick(step: Double) -> String { withUnit(tickNumber(step: step)) }

    /// An axis tick at `step`, the number alone.
    public func tickNumber(step: Double) -> String {
        var needed = 0
        if step.isFinite, step > 0 {
            // 1, 2 and 5 × 10ⁿ steps: n < 0 needs -n decimals.
            needed = Swift.max(0, Int(-floor(log10(step) + 1e-9)))
        }
        let most = Self.fixedDecimals[unit] ?? 12
        return Self.format(value, decimals: Swift.min(needed, most))
    }

    /// The smallest step the unit resolves (0.001 for `s`, 0.1 for `ms`, 1 for a count); nil for units
    /// shown to three significant digits.
    public static func resolution(of unit: String) -> Double? {
        fixedDecimals[unit].map { pow(10, -Double($0)) }
    }

    /// A case's or a run's duration in seconds: to the millisecond below a minute, then `1 min 03 s`.
    public static func duration(_ seconds: Double) -> String {
        seconds.isFinite && seconds >= 60 ? ProgressText.duration(seconds) : MeasuredValue(seconds, unit: "s").text
    }

    /// Units with a fixed resolution, as decimals.
    static let fixedDecimals: [String: Int] = [
        "s": 3, "ms": 1, "µs": 0, "us": 0, "%": 1,
        "count": 0, "samples": 0, "bytes": 0, "B": 0, "packets": 0, "dBm": 0,
    ]

    func withUnit(_ number: String) -> String {
        unit.isEmpty || unit == "count" ? number : "\(number) \(unit)"
    }

    static func format(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        if abs(value) >= 1e9 { return String(format: "%.2e", value) }
        let text = String(format: "%.\(decimals)f", value)
        // -0.0 rounds to a zero that is no less than 0.
        if text.hasPrefix("-"), text.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) { return String(text.dropFirst()) }
        return text
    }
}
