/// Durations on the command line: `300` (seconds), `500ms`, `90s`, `5m`, `2h`, `1d`, fractions allowed (`1.5m`).
extension Arguments {
    /// A duration option within `range`; names the option, the bad value and the forms it takes otherwise.
    mutating func duration(_ name: String, in range: ClosedRange<Duration>) throws(UsageError) -> Duration? {
        guard let text = try option(name) else { return nil }
        guard let value = Self.parseDuration(text), range.contains(value) else {
            throw UsageError("--\(name) takes a duration from \(Self.describe(range.lowerBound)) to \(Self.describe(range.upperBound)) "
                + "(seconds, or with a unit: 500ms, 90s, 5m, 2h, 1d), not '\(text)'")
        }
        return value
    }

    /// Parses a number of seconds or a number with a unit; nil for anything else (negative, NaN, no number).
    static func parseDuration(_ text: String) -> Duration? {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86_400)]
        let unit = units.first { text.hasSuffix($0.suffix) && Double(text.dropLast($0.suffix.count)) != nil }
        let number = Double(unit.map { String(text.dropLast($0.suffix.count)) } ?? text)
        guard let number, number.isFinite, number >= 0 else { return nil }
        let seconds = number * (unit?.seconds ?? 1)
        guard seconds < 1e12 else { return nil }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    /// `1 s`, `7 d`, `5 min`, `250 ms`: a bound, as a person reads it.
    static func describe(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        for (unit, size) in [("d", 86_400.0), ("h", 3600), ("min", 60), ("s", 1)] where seconds >= size && (seconds / size).rounded() == seconds / size {
            return "\(Int(seconds / size)) \(unit)"
        }
        return "\(Int((seconds * 1000).rounded())) ms"
    }
}
