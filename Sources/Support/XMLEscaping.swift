/// Escaping for XML 1.0 documents (JUnit files, SVG) and the HTML reports, which share its five entities: any
/// string — a test name, an accessory's device name, a controller's reply — goes in and the document stays
/// well-formed. The one place the project escapes markup: `HILResults` and `Preflight` write with it.
package enum XMLEscaping {
    /// Character data (XML 1.0 §2.4): `& < > " '` as references; a carriage return as one too, since end-of-line
    /// handling (§2.11) reads a literal one back as a line feed; and each character XML 1.0 forbids (the C0
    /// controls other than tab, line feed and carriage return; U+FFFE; U+FFFF — §2.2 `Char`) or discourages (the
    /// C1 controls and DEL) as U+FFFD, so what was there still shows.
    package static func text(_ text: String) -> String {
        escape(text, whiteSpaceAsReferences: false)
    }

    /// A quoted attribute value: as `text`, and tab and line feed as character references too, since
    /// attribute-value normalisation (§3.3.3) reads a literal one back as a space.
    package static func attribute(_ text: String) -> String {
        escape(text, whiteSpaceAsReferences: true)
    }

    private static func escape(_ text: String, whiteSpaceAsReferences: Bool) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\r": result += "&#13;"
            case "\t", "\n":
                if whiteSpaceAsReferences { result += "&#\(scalar.value);" } else { result.unicodeScalars.append(scalar) }
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    result += "\u{FFFD}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}
