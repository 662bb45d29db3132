/// A JSON value we write (a JSON Schema, its parts): object members stay in the order they are given, numbers
/// keep their text (`0.001`, `18446744073709551615`). `rendered()` writes it as Python's
/// `json.dumps(indent=2, ensure_ascii=False)` does, so a generated file diffs cleanly.
package indirect enum OrderedJSON: Sendable, Equatable {
    case object([Member])
    case array([OrderedJSON])
    case string(String)
    /// The number's JSON text.
    case number(String)
    case bool(Bool)

    /// One `"key": value` member.
    package struct Member: Sendable, Equatable {
        package var key: String
        package var value: OrderedJSON

        package init(_ key: String, _ value: OrderedJSON) {
            self.key = key
            self.value = value
        }
    }

    /// A whole number.
    package static func integer(_ value: Int) -> OrderedJSON { .number(String(value)) }

    /// A number, written as `InputValue.format` writes it (`7.5`, `600`, `0.001`).
    package static func decimal(_ value: Double) -> OrderedJSON { .number(InputValue.format(value)) }

    /// An array of strings.
    package static func strings(_ values: [String]) -> OrderedJSON { .array(values.map(OrderedJSON.string)) }

    /// The text, two spaces an indent, ending in a newline.
    package func rendered() -> String {
        var text = ""
        write(to: &text, indent: "")
        return text + "\n"
    }

    /// The value on one line, as JSON (`"auto"`, `10`, `["0x08"]`).
    package var compact: String {
        switch self {
        case .object(let members): return "{" + members.map { "\(Self.quote($0.key)): \($0.value.compact)" }.joined(separator: ", ") + "}"
        case .array(let items): return "[" + items.map(\.compact).joined(separator: ", ") + "]"
        case .string(let text): return Self.quote(text)
        case .number(let text): return text
        case .bool(let value): return value ? "true" : "false"
        }
    }

    private func write(to text: inout String, indent: String) {
        let inner = indent + "  "
        switch self {
        case .object(let members) where !members.isEmpty:
            text += "{\n"
            for (index, member) in members.enumerated() {
                text += inner + Self.quote(member.key) + ": "
                member.value.write(to: &text, indent: inner)
                text += index == members.count - 1 ? "\n" : ",\n"
            }
            text += indent + "}"
        case .array(let items) where !items.isEmpty:
            text += "[\n"
            for (index, item) in items.enumerated() {
                text += inner
                item.write(to: &text, indent: inner)
                text += index == items.count - 1 ? "\n" : ",\n"
            }
            text += indent + "]"
        default:
            text += compact
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped (as in messages), the rest as is.
    static func quote(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars { JSONValue.appendLiteral(scalar, to: &quoted) }
        return quoted + "\""
    }
}
