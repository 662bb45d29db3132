/// One key of an object and its rule, declared once: the reader reads the key through it (its range and
/// default, `missing; expected …` when it is required and absent), the schema writes it as a property, the
/// reference as a row.
package struct JSONField: Sendable {
    package let key: String
    package let rule: JSONRule
    package let isRequired: Bool
    /// What the reader's messages say it expected (`a port number from 1 to 255`); nil: said from the rule.
    package let expected: String?

    package init(_ key: String, _ rule: JSONRule, required: Bool = false, expected: String? = nil) {
        self.key = key
        self.rule = rule
        self.isRequired = required
        self.expected = expected
    }

    /// A whole-number field in `range`.
    package static func integer(_ key: String, _ range: ClosedRange<Int>, default defaultValue: Int? = nil, required: Bool = false,
                               expected: String? = nil, description: String) -> JSONField {
        JSONField(key, JSONRule(.integer(range), description: description, default: defaultValue.map(OrderedJSON.integer)),
                  required: required, expected: expected)
    }

    /// A number field in `range`.
    package static func number(_ key: String, _ range: ClosedRange<Double>, default defaultValue: Double? = nil, expected: String? = nil,
                              description: String) -> JSONField {
        JSONField(key, JSONRule(.number(minimum: range.lowerBound, exclusive: false, maximum: range.upperBound), description: description,
                                default: defaultValue.map(OrderedJSON.decimal)), expected: expected)
    }

    /// A number field above `minimum` and at most `maximum`.
    package static func number(_ key: String, above minimum: Double, atMost maximum: Double, default defaultValue: Double? = nil,
                              expected: String, description: String) -> JSONField {
        JSONField(key, JSONRule(.number(minimum: minimum, exclusive: true, maximum: maximum), description: description,
                                default: defaultValue.map(OrderedJSON.decimal)), expected: expected)
    }

    /// A true-or-false field.
    package static func boolean(_ key: String, default defaultValue: Bool? = nil, description: String) -> JSONField {
        JSONField(key, JSONRule(.boolean, description: description, default: defaultValue.map(OrderedJSON.bool)))
    }

    /// The default as a whole number, a number, a truth value, a string.
    package var defaultInteger: Int? { if case .number(let text)? = rule.defaultValue { return Int(text) }; return nil }
    package var defaultNumber: Double? { if case .number(let text)? = rule.defaultValue { return Double(text) }; return nil }
    package var defaultBool: Bool? { if case .bool(let value)? = rule.defaultValue { return value }; return nil }
    package var defaultString: String? { if case .string(let text)? = rule.defaultValue { return text }; return nil }
}
