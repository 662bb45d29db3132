import Foundation

extension Duration {
    /// `3 s`, `0.4 s`, `150 ms`: how messages print a duration.
    package var seconds: String {
        let value = self / .seconds(1)
        if value < 1 { return "\(Int((value * 1000).rounded())) ms" }
        if value == value.rounded() { return "\(Int(value)) s" }
        return String(format: "%.1f s", value)
    }

    /// Parses `2s`, `2`, `1.5s`, `500ms` (a bare number is seconds); nil for anything else or negative.
    package static func parse(_ text: String) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var number = Substring(trimmed)
        var scale = 1.0
        if number.hasSuffix("ms") { number = number.dropLast(2); scale = 0.001 }
        else if number.hasSuffix("s") { number = number.dropLast(1) }
        guard let value = Double(number), value.isFinite, value >= 0, value * scale <= 86_400 else { return nil }
        return .milliseconds(Int64((value * scale * 1000).rounded()))
    }
}
