/// Where a JSON value starts in its text: 1-based line and column (the column counts Unicode scalars).
package struct JSONPosition: Sendable, Hashable, CustomStringConvertible {
    package var line: Int
    package var column: Int

    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    package var description: String { "line \(line), column \(column)" }
}

/// A JSON value (RFC 8259) as written: numbers keep their text, so `1.5`, `1e22` and
/// `9223372036854775808` can be judged by each field and quoted exactly; objects keep their members in
/// order with the position of each key.
package indirect enum JSONValue: Sendable, Hashable {
    case object([JSONMember])
    case array([JSONNode])
    case string(String)
    /// The number's text, as it matched RFC 8259's `number` production.
    case number(String)
    case bool(Bool)
    case null
}

/// A JSON value and where it starts.
package struct JSONNode: Sendable, Hashable {
    package var value: JSONValue
    package var position: JSONPosition

    package init(_ value: JSONValue, at position: JSONPosition) {
        self.value = value
        self.position = position
    }
}

/// One `"key": value` member of a JSON object.
package struct JSONMember: Sendable, Hashable {
    package var key: String
    package var keyPosition: JSONPosition
    package var value: JSONNode

    package init(key: String, keyPosition: JSONPosition, value: JSONNode) {
        self.key = key
        self.keyPosition = keyPosition
        self.value = value
    }
}
