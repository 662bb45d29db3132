/// Reading an object through its `JSONShape`: the keys it may have, and each field's range, default and
/// `missing; expected …` from the field's declaration, so the reader and the schema cannot drift apart.
extension InputValue {
    /// Reads an object of `shape`: a key it does not declare is rejected first, with a did-you-mean among
    /// its keys, then `read` reads the fields.
    package func object<T>(_ shape: JSONShape, _ expected: String = "an object",
                          _ read: (InputObject) throws(InputError) -> T) throws(InputError) -> T {
        try object(keys: shape.keys, expected, read)
    }
}

extension InputObject {
    /// The field, if present.
    package func value(_ field: JSONField) -> InputValue? { value(field.key) }

    /// The field, or `PATH.KEY: missing; expected EXPECTED` (the field's `expected`).
    package func required(_ field: JSONField) throws(InputError) -> InputValue {
        try required(field.key, field.expected ?? Self.expected(field.rule))
    }

    /// The value, or the field's default; `missing; expected …` when it has neither.
    private func valueOrDefault<T>(_ field: JSONField, _ fallback: T?,
                                   _ read: (InputValue) throws(InputError) -> T) throws(InputError) -> T {
        if let value = value(field) { return try read(value) }
        if let fallback { return fallback }
        return try read(try required(field))
    }

    /// A whole number in the field's range, or its default.
    package func integer(_ field: JSONField) throws(InputError) -> Int {
        try valueOrDefault(field, field.defaultInteger) { (value: InputValue) throws(InputError) -> Int in try Self.integer(value, field) }
    }

    /// A whole number in the field's range, or nil when absent.
    package func optionalInteger(_ field: JSONField) throws(InputError) -> Int? {
        try value(field).map { (value: InputValue) throws(InputError) -> Int in try Self.integer(value, field) }
    }

    /// A number in the field's range, or its default.
    package func number(_ field: JSONField) throws(InputError) -> Double {
        try valueOrDefault(field, field.defaultNumber) { (value: InputValue) throws(InputError) -> Double in try Self.number(value, field) }
    }

    /// A number in the field's range, or nil when absent.
    package func optionalNumber(_ field: JSONField) throws(InputError) -> Double? {
        try value(field).map { (value: InputValue) throws(InputError) -> Double in try Self.number(value, field) }
    }

    /// True or false, or the field's default.
    package func bool(_ field: JSONField) throws(InputError) -> Bool {
        try valueOrDefault(field, field.defaultBool) { (value: InputValue) throws(InputError) -> Bool in try value.bool() }
    }

    /// A string (non-empty unless the rule allows it), or the field's default.
    package func string(_ field: JSONField) throws(InputError) -> String {
        try valueOrDefault(field, field.defaultString) { (value: InputValue) throws(InputError) -> String in try Self.string(value, field) }
    }

    /// A string (non-empty unless the rule allows it), or nil when absent.
    package func optionalString(_ field: JSONField) throws(InputError) -> String? {
        try value(field).map { (value: InputValue) throws(InputError) -> String in try Self.string(value, field) }
    }

    /// A whole number from 0 to 2^64 − 1 in plain digits, or nil when absent.
    package func optionalUnsigned64(_ field: JSONField) throws(InputError) -> UInt64? {
        try value(field).map { (value: InputValue) throws(InputError) -> UInt64 in
            if let expected = field.expected { return try value.unsigned64(expected) }
            return try value.unsigned64()
        }
    }

    static func integer(_ value: InputValue, _ field: JSONField) throws(InputError) -> Int {
        guard case .integer(let range) = field.rule.kind else { throw value.problem("is not a whole-number field") }
        return try value.integer(in: range, field.expected)
    }

    static func number(_ value: InputValue, _ field: JSONField) throws(InputError) -> Double {
        guard case .number(let minimum, let exclusive, let maximum) = field.rule.kind else { throw value.problem("is not a number field") }
        if !exclusive { return try value.number(in: minimum...maximum, field.expected) }
        let expected = field.expected ?? "a number above \(InputValue.format(minimum)) and at most \(InputValue.format(maximum))"
        return try value.number(expected) { $0 > minimum && $0 <= maximum }
    }

    static func string(_ value: InputValue, _ field: JSONField) throws(InputError) -> String {
        guard case .string(let minLength, let pattern, _, let choices, let constant) = field.rule.kind else { throw value.problem("is not a string field") }
        let free = minLength == nil && pattern == nil && choices == nil && constant == nil
        return try value.string(field.expected ?? (free ? "a string" : "a non-empty string"), allowEmpty: free)
    }

    /// What a value of `rule` is, in a message: `a whole number from 1 to 255`.
    static func expected(_ rule: JSONRule) -> String {
        switch rule.kind {
        case .integer(let range): return "a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .number(let minimum, false, let maximum): return "a number from \(InputValue.format(minimum)) to \(InputValue.format(maximum))"
        case .boolean: return "true or false"
        case .string: return "a non-empty string"
        case .array: return "an array"
        default: return "an object"
        }
    }
}
