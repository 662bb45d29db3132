/// Escaping for XML, HTML and SVG text and attribute values.
public enum Markup {
    /// Escapes `& < > " '` and replaces characters XML 1.0 forbids (C0 controls other than tab, newline
    /// and carriage return; U+FFFE, U+FFFF) with U+FFFD, so any string from a test name, an accessory or a
    /// controller makes a well-formed document.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF || (0x7F...0x9F).contains(scalar.value) {
                    result += "\u{FFFD}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// A number with at most `digits` decimals and no trailing zeros: 0.84, 12, 0.003.
    public static func number(_ value: Double, digits: Int = 3) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        var text = String(format: "%.\(digits)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
}
