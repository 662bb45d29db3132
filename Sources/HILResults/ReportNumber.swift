import Foundation

/// Numbers as the reports and the runner's summary print them (their markup is escaped by `XMLEscaping`).
package enum ReportNumber {
    /// A number with at most `digits` decimals and no trailing zeros: 0.84, 12, 0.003.
    package static func text(_ value: Double, digits: Int = 3) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        var text = String(format: "%.\(digits)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
}
