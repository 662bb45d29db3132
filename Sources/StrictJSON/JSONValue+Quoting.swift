extension JSONValue {
    /// The value as an error message quotes it: scalars as written, strings quoted, arrays and objects
    /// compactly, cut after about 60 characters. Only what is shown is rendered, so quoting a value of a
    /// megabyte costs what quoting a word does.
    package var quoted: String {
        var text = ""
        var budget = 64
        if render(into: &text, budget: &budget), text.count <= 60 { return text }
        return String(text.prefix(57)) + "…"
    }

    /// Text from a file as a message shows it in its own words (`unknown action 'disconect'`): one line —
    /// control characters, DEL and C1 written as `\uXXXX` — and cut after `characters` Unicode scalars, its
    /// length in bytes after the cut: `aaaaaaaaaa… (70000 bytes)`. Reads no further than the cut.
    package static func excerpt(_ text: String, characters: Int = 40) -> String {
        var result = ""
        var taken = 0
        for scalar in text.unicodeScalars {
            if taken == characters { return result + "… (\(text.utf8.count) bytes)" }
            if isControl(scalar) { appendEscaped(scalar, to: &result) } else { result.unicodeScalars.append(scalar) }
            taken += 1
        }
        return result
    }

    /// Appends the value's rendering to `text`, spending one of `budget` per Unicode scalar; false when the
    /// budget ran out first (the rendering is cut there).
    func render(into text: inout String, budget: inout Int) -> Bool {
        switch self {
        case .string(let value): return Self.appendQuoted(value, to: &text, budget: &budget)
        case .number(let value): return Self.append(value, to: &text, budget: &budget)
        case .bool(let value): return Self.append(value ? "true" : "false", to: &text, budget: &budget)
        case .null: return Self.append("null", to: &text, budget: &budget)
        case .array(let items):
            guard Self.append("[", to: &text, budget: &budget) else { return false }
            for (index, item) in items.enumerated() {
                if index > 0 { guard Self.append(", ", to: &text, budget: &budget) else { return false } }
                guard item.value.render(into: &text, budget: &budget) else { return false }
            }
            return Self.append("]", to: &text, budget: &budget)
        case .object(let members):
            guard Self.append("{", to: &text, budget: &budget) else { return false }
            for (index, member) in members.enumerated() {
                if index > 0 { guard Self.append(", ", to: &text, budget: &budget) else { return false } }
                guard Self.appendQuoted(member.key, to: &text, budget: &budget), Self.append(": ", to: &text, budget: &budget),
                      member.value.value.render(into: &text, budget: &budget) else { return false }
            }
            return Self.append("}", to: &text, budget: &budget)
        }
    }

    /// `text` as a JSON string literal, control characters escaped.
    static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars { appendLiteral(scalar, to: &result) }
        return result + "\""
    }

    private static func append(_ piece: String, to text: inout String, budget: inout Int) -> Bool {
        for scalar in piece.unicodeScalars {
            guard budget > 0 else { return false }
            text.unicodeScalars.append(scalar)
            budget -= 1
        }
        return true
    }

    private static func appendQuoted(_ value: String, to text: inout String, budget: inout Int) -> Bool {
        guard append("\"", to: &text, budget: &budget) else { return false }
        var literal = ""
        for scalar in value.unicodeScalars {
            literal.removeAll(keepingCapacity: true)
            appendLiteral(scalar, to: &literal)
            guard append(literal, to: &text, budget: &budget) else { return false }
        }
        return append("\"", to: &text, budget: &budget)
    }

    /// One scalar as a JSON string literal writes it, in a message: `"` and `\` escaped, control characters
    /// (C0, DEL, C1) as `\n`, `\t`, `\r` or `\uXXXX`.
    static func appendLiteral(_ scalar: Unicode.Scalar, to text: inout String) {
        switch scalar {
        case "\"": text += "\\\""
        case "\\": text += "\\\\"
        case "\n": text += "\\n"
        case "\t": text += "\\t"
        case "\r": text += "\\r"
        default:
            if isControl(scalar) { appendEscaped(scalar, to: &text) } else { text.unicodeScalars.append(scalar) }
        }
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    private static func appendEscaped(_ scalar: Unicode.Scalar, to text: inout String) {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        text += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
