/// Writes a file format's rules as a JSON Schema (draft-07): the root object with `additionalProperties:
/// false` on every object (the reader refuses unknown keys), each definition once under `definitions` in the
/// order first referred to, each rule's reader notes as its `$comment`.
package enum JSONSchemaWriter {
    /// The schema document of `root`.
    package static func document(title: String, description: String, comment: String, root: JSONShape) -> OrderedJSON {
        var definitions: [JSONDefinition] = []
        var seen: Set<String> = []
        JSONRule(.object(root)).visit { rule in
            if case .definition(let definition) = rule.kind, seen.insert(definition.name).inserted { definitions.append(definition) }
            if case .object(let shape) = rule.kind {
                for definition in shape.conditions.flatMap(\.also) where seen.insert(definition.name).inserted { definitions.append(definition) }
            }
        }
        var members: [OrderedJSON.Member] = [
            .init("$schema", .string("http://json-schema.org/draft-07/schema#")),
            .init("title", .string(title)),
            .init("description", .string(description)),
            .init("$comment", .string(comment)),
        ]
        members += objectMembers(root, description: nil)
        members.append(.init("definitions", .object(definitions.map { .init($0.name, schema($0.rule)) })))
        return .object(members)
    }

    /// One rule as schema.
    package static func schema(_ rule: JSONRule) -> OrderedJSON {
        var members: [OrderedJSON.Member] = []
        let description = rule.description.map { OrderedJSON.Member("description", .string($0)) }
        switch rule.kind {
        case .string(let minLength, let pattern, let format, let choices, let constant):
            members.append(.init("type", .string("string")))
            if let minLength { members.append(.init("minLength", .integer(minLength))) }
            if let pattern { members.append(.init("pattern", .string(pattern))) }
            if let format { members.append(.init("format", .string(format))) }
            if let choices { members.append(.init("enum", .strings(choices))) }
            if let constant { members.append(.init("const", .string(constant))) }
        case .integer(let range):
            members += [.init("type", .string("integer")), .init("minimum", .integer(range.lowerBound)), .init("maximum", .integer(range.upperBound))]
        case .unsigned64:
            members += [.init("type", .string("integer")), .init("minimum", .integer(0)), .init("maximum", .number(String(UInt64.max)))]
        case .number(let minimum, let exclusive, let maximum):
            members += [.init("type", .string("number")), .init(exclusive ? "exclusiveMinimum" : "minimum", .decimal(minimum)),
                        .init("maximum", .decimal(maximum))]
        case .boolean:
            members.append(.init("type", .string("boolean")))
        case .array(let items, let tuple, let minItems, let unique):
            members.append(.init("type", .string("array")))
            if let minItems { members.append(.init("minItems", .integer(minItems))) }
            if unique { members.append(.init("uniqueItems", .bool(true))) }
            if tuple.isEmpty {
                if let items { members.append(.init("items", schema(items))) }
            } else {
                members.append(.init("items", .array(tuple.map(schema))))
                if let items { members.append(.init("additionalItems", schema(items))) }
            }
        case .object(let shape):
            return .object(objectMembers(shape, description: rule.description) + comment(rule.notes))
        case .definition(let definition):
            guard let description else { return .object([.init("$ref", .string(definition.pointer))]) }
            return .object([description, .init("allOf", .array([.object([.init("$ref", .string(definition.pointer))])]))]
                           + comment(rule.notes))
        case .anyOf(let forms):
            return .object((description.map { [$0] } ?? []) + [.init("anyOf", .array(forms.map(schema)))] + comment(rule.notes))
        case .keywords:
            break
        }
        if let value = rule.defaultValue { members.append(.init("default", value)) }
        if let description { members.append(description) }
        if !rule.examples.isEmpty { members.append(.init("examples", .strings(rule.examples))) }
        return .object(members + rule.extra + comment(rule.notes))
    }

    static func objectMembers(_ shape: JSONShape, description: String?) -> [OrderedJSON.Member] {
        var members: [OrderedJSON.Member] = [.init("type", .string("object")),
                                             .init("additionalProperties", shape.anyKey.map(schema) ?? .bool(false))]
        if let minProperties = shape.minProperties { members.append(.init("minProperties", .integer(minProperties))) }
        if !shape.requiredKeys.isEmpty { members.append(.init("required", .strings(shape.requiredKeys))) }
        if let description { members.append(.init("description", .string(description))) }
        if !shape.fields.isEmpty {
            members.append(.init("properties", .object(shape.fields.map { .init($0.key, schema($0.rule)) })))
        }
        if !shape.conditions.isEmpty { members.append(.init("allOf", .array(shape.conditions.map(condition)))) }
        return members
    }

    static func condition(_ condition: JSONShape.Condition) -> OrderedJSON {
        let test = OrderedJSON.object([
            .init("required", .strings([condition.key])),
            .init("properties", .object([.init(condition.key, .object([.init("const", .string(condition.value))]))])),
        ])
        var then: [OrderedJSON.Member] = []
        if !condition.requires.isEmpty { then.append(.init("required", .strings(condition.requires))) }
        if let keys = condition.onlyKeys { then.append(.init("propertyNames", .object([.init("enum", .strings(keys))]))) }
        if !condition.properties.isEmpty { then.append(.init("properties", .object(condition.properties.map { .init($0.0, $0.1) }))) }
        if !condition.also.isEmpty {
            then.append(.init("allOf", .array(condition.also.map { .object([.init("$ref", .string($0.pointer))]) })))
        }
        return .object([.init("if", test), .init("then", .object(then))])
    }

    static func comment(_ notes: [ReaderNote]) -> [OrderedJSON.Member] {
        notes.isEmpty ? [] : [.init("$comment", .string(notes.map(\.comment).joined(separator: " ")))]
    }
}
