/// Where a JSON value starts in its text: 1-based line and column (the column counts Unicode scalars).
public struct JSONPosition: Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "line \(line), column \(column)" }
}

/// A JSON value (RFC 8259) as written: numbers keep their text, so `1.5`, `1e22` and
/// `9223372036854775808` can be judged by each field and quoted exactly; objects keep their members in
/// order with the position of each key.
public indirect enum JSONValue: Sendable, Hashable {
    case object([JSONMember])
    case array([JSONNode])
    case string(String)
    /// The number's text, as it matched RFC 8259's `number` production.
    case number(String)
    case bool(Bool)
    case null
}

/// A JSON value and where it starts.
public struct JSONNode: Sendable, Hashable {
    public var value: JSONValue
    public var position: JSONPosition

    public init(_ value: JSONValue, at position: JSONPosition) {
        self.value = value
        self.position = position
    }
}

/// One `"key": value` member of a JSON object.
public struct JSONMember: Sendable, Hashable {
    public var key: String
    public var keyPosition: JSONPosition
    public var value: JSONNode

    public init(key: String, keyPosition: JSONPosition, value: JSONNode) {
        self.key = key
        self.keyPosition = keyPosition
        self.value = value
    }
}
