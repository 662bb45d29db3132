/// What one JSON value of an input file must be — its type and the range, pattern or enum it keeps to — and
/// what it means (a description: meaning, unit, default, the Core spec section where one applies). The one
/// description of a field that the strict reader checks against, `JSONSchemaWriter` writes as JSON Schema
/// (draft-07) and `JSONReferenceWriter` as a reference table.
package struct JSONRule: Sendable {
    package var kind: Kind
    package var description: String?
    /// The value the reader uses when the field is absent (the schema's `default`).
    package var defaultValue: OrderedJSON?
    package var examples: [String] = []
    /// What the reader checks beyond the rule (written as the schema's `$comment`).
    package var notes: [ReaderNote] = []
    /// Schema keywords written after the rule's own, for what the kinds do not name (an `anyOf` of forms).
    package var extra: [OrderedJSON.Member] = []

    package indirect enum Kind: Sendable {
        /// A string: non-empty unless `minLength` is nil; a pattern, a format, one of `choices`, or `constant`.
        case string(minLength: Int?, pattern: String?, format: String?, choices: [String]?, constant: String?)
        /// A whole number in the range (1.0 and 1e2 count, as the schema's integer).
        case integer(ClosedRange<Int>)
        /// A whole number from 0 to 2^64 − 1 written as plain digits (1.0 and 1e2 are refused: a schema
        /// cannot see how a number is written, so that part is the reader's alone).
        case unsigned64
        /// A finite number from `minimum` (above it when `exclusive`) to `maximum`.
        case number(minimum: Double, exclusive: Bool, maximum: Double)
        case boolean
        /// An array: one rule for every element, or `tuple` rules for the first elements and `items` for the rest.
        case array(items: JSONRule?, tuple: [JSONRule], minItems: Int?, unique: Bool)
        /// An object of known keys.
        case object(JSONShape)
        /// A named definition, written once under `definitions` and referred to where used.
        case definition(JSONDefinition)
        /// Any of these forms.
        case anyOf([JSONRule])
        /// Only the extra keywords (a `oneOf` of required keys).
        case keywords
    }

    package init(_ kind: Kind, description: String? = nil, default defaultValue: OrderedJSON? = nil,
                examples: [String] = [], notes: [ReaderNote] = [], extra: [OrderedJSON.Member] = []) {
        self.kind = kind
        self.description = description
        self.defaultValue = defaultValue
        self.examples = examples
        self.notes = notes
        self.extra = extra
    }

    /// A string rule (non-empty unless `allowEmpty`).
    package static func string(pattern: String? = nil, format: String? = nil, choices: [String]? = nil, constant: String? = nil,
                              allowEmpty: Bool = false, description: String? = nil, default defaultValue: String? = nil,
                              examples: [String] = [], notes: [ReaderNote] = []) -> JSONRule {
        let minLength = allowEmpty || choices != nil || constant != nil || pattern != nil ? nil : 1
        return JSONRule(.string(minLength: minLength, pattern: pattern, format: format, choices: choices, constant: constant),
                        description: description, default: defaultValue.map(OrderedJSON.string), examples: examples, notes: notes)
    }

    /// A non-empty string that must also match `pattern` (both written in the schema).
    package static func nonEmptyString(pattern: String, format: String? = nil, description: String? = nil, default defaultValue: String? = nil,
                                      examples: [String] = [], notes: [ReaderNote] = []) -> JSONRule {
        JSONRule(.string(minLength: 1, pattern: pattern, format: format, choices: nil, constant: nil), description: description,
                 default: defaultValue.map(OrderedJSON.string), examples: examples, notes: notes)
    }

    /// An array of `items`.
    package static func array(of items: JSONRule, minItems: Int? = nil, unique: Bool = false, description: String? = nil,
                             notes: [ReaderNote] = []) -> JSONRule {
        JSONRule(.array(items: items, tuple: [], minItems: minItems, unique: unique), description: description, notes: notes)
    }

    /// The values a string rule allows, if it lists them.
    package var choices: [String]? {
        if case .string(_, _, _, let choices, _) = kind { return choices }
        return nil
    }

    /// Every reader-only refusal this rule and the rules inside it name.
    package var readerOnlyRefusals: [String] {
        var found: [String] = []
        var seen: Set<String> = []
        visit { rule in
            for refusal in rule.notes.flatMap(\.refusals) where seen.insert(refusal).inserted { found.append(refusal) }
        }
        return found
    }

    /// Calls `body` with this rule and every rule inside it (each definition once).
    package func visit(_ body: (JSONRule) -> Void) {
        var seen: Set<String> = []
        visit(body, seen: &seen)
    }

    func visit(_ body: (JSONRule) -> Void, seen: inout Set<String>) {
        body(self)
        for child in children(seen: &seen) { child.visit(body, seen: &seen) }
    }

    /// The rules directly inside this one; a definition's rule only the first time it is met.
    func children(seen: inout Set<String>) -> [JSONRule] {
        switch kind {
        case .array(let items, let tuple, _, _): return tuple + (items.map { [$0] } ?? [])
        case .object(let shape): return shape.childRules(seen: &seen)
        case .definition(let definition):
            return seen.insert(definition.name).inserted ? [definition.rule] : []
        case .anyOf(let forms): return forms
        case .string, .integer, .unsigned64, .number, .boolean, .keywords: return []
        }
    }
}
