import Foundation

/// A property list value, with the line of its XML element when read from an XML plist.
package indirect enum PropertyListValue: Sendable, Hashable {
    case string(String)
    case integer(Int)
    case real(Double)
    case bool(Bool)
    case date(Date)
    case data(Data)
    case array([PropertyListNode])
    case dictionary([String: PropertyListNode])

    /// The string, if this is one.
    package var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    package var array: [PropertyListNode]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The entries, if this is a dictionary.
    package var dictionary: [String: PropertyListNode]? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    /// The boolean, if this is one.
    package var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The plist type name as it appears in XML (`string`, `dict`...), for messages.
    package var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .bool: "boolean"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dict"
        }
    }
}

/// A property list value and where it was written (XML plists only; binary plists have no lines).
package struct PropertyListNode: Sendable, Hashable {
    /// The value.
    package let value: PropertyListValue
    /// 1-based line of the value's element (for a dictionary entry, of its `<key>`), nil in a binary plist.
    package let line: Int?
    /// 1-based column, nil in a binary plist.
    package let column: Int?

    package init(_ value: PropertyListValue, line: Int? = nil, column: Int? = nil) {
        self.value = value
        self.line = line
        self.column = column
    }
}
