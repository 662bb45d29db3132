/// Writes a file format's rules as a Markdown reference: one section per object (the root, then each object
/// definition in the order the schema lists them), one table row per key — key, type, range, default,
/// description — and the reader's own checks under the table.
package enum JSONReferenceWriter {
    /// The reference of `root`, under `title` and `introduction`.
    package static func document(title: String, introduction: String, root: JSONShape, rootName: String) -> String {
        var sections: [(String, JSONShape, [ReaderNote])] = [(rootName, root, root.notes)]
        var seen: Set<String> = []
        JSONRule(.object(root)).visit { rule in
            if case .definition(let definition) = rule.kind, seen.insert(definition.name).inserted,
               case .object(let shape) = definition.rule.kind {
                sections.append((definition.name, shape, definition.rule.notes))
            }
        }
        var text = "# \(title)\n\n\(introduction)\n"
        for (name, shape, notes) in sections {
            text += "\n## \(name)\n\n"
            if let description = shape.description { text += "\(description)\n\n" }
            text += "| Key | Type | Range | Default | Description |\n|---|---|---|---|---|\n"
            for field in shape.fields {
                let cells = ["`\(field.key)`", type(field.rule), range(field.rule), field.isRequired ? "required" : (field.rule.defaultValue.map { "`\($0.compact)`" } ?? "—"),
                             field.rule.description ?? ""]
                text += "| " + cells.map(cell).joined(separator: " | ") + " |\n"
            }
            if let anyKey = shape.anyKey { text += "| any key | \(cell(type(anyKey))) | | | \(cell(anyKey.description ?? "")) |\n" }
            for condition in shape.conditions {
                var parts: [String] = []
                if !condition.requires.isEmpty { parts.append("requires " + condition.requires.map { "`\($0)`" }.joined(separator: ", ")) }
                if let keys = condition.onlyKeys { parts.append("allows only " + keys.map { "`\($0)`" }.joined(separator: ", ")) }
                for (key, value) in condition.properties { parts.append("`\(key)` must be \(value.compact)") }
                for definition in condition.also { parts.append(definition.rule.description ?? definition.name) }
                text += "\nWhen `\(condition.key)` is `\(condition.value)`: \(parts.joined(separator: "; ")).\n"
            }
            let checks = notes + shape.fields.flatMap(\.rule.notes)
            if !checks.isEmpty { text += "\n" + checks.map { "- \($0.comment)\n" }.joined() }
        }
        return text
    }

    /// `string`, `integer`, `array of string`, `[powerReference](#powerreference)`.
    static func type(_ rule: JSONRule) -> String {
        switch rule.kind {
        case .string: return "string"
        case .integer, .unsigned64: return "integer"
        case .number: return "number"
        case .boolean: return "boolean"
        case .array(let items, let tuple, _, _): return "array of " + ((tuple.first ?? items).map(type) ?? "any")
        case .object: return "object"
        case .definition(let definition):
            if case .object = definition.rule.kind { return "[\(definition.name)](#\(definition.name.lowercased()))" }
            return type(definition.rule)
        case .anyOf(let forms): return forms.map(type).joined(separator: " or ")
        case .keywords: return "—"
        }
    }

    /// `1 to 255`, `above 0, at most 3600000`, `one of auto, sysfs`, `non-empty`.
    static func range(_ rule: JSONRule) -> String {
        switch rule.kind {
        case .string(let minLength, let pattern, _, let choices, let constant):
            if let choices { return "one of " + choices.map { "`\($0)`" }.joined(separator: ", ") }
            if let constant { return "`\(constant)`" }
            if let example = rule.examples.first { return "like `\(example)`" }
            if pattern != nil { return "a pattern (see the schema)" }
            return minLength == nil ? "" : "non-empty"
        case .integer(let range): return "\(range.lowerBound) to \(range.upperBound)"
        case .unsigned64: return "0 to \(UInt64.max), plain digits"
        case .number(let minimum, let exclusive, let maximum):
            return exclusive ? "above \(InputValue.format(minimum)), at most \(InputValue.format(maximum))"
                             : "\(InputValue.format(minimum)) to \(InputValue.format(maximum))"
        case .array(let items, let tuple, let minItems, let unique):
            var parts = [(tuple.first ?? items).map(range) ?? ""].filter { !$0.isEmpty }
            if let minItems { parts.append("at least \(minItems)") }
            if unique { parts.append("each once") }
            return parts.joined(separator: "; ")
        case .definition(let definition):
            if case .object = definition.rule.kind { return "" }
            return range(definition.rule)
        case .anyOf(let forms): return forms.map(range).filter { !$0.isEmpty }.joined(separator: " or ")
        case .boolean, .object, .keywords: return ""
        }
    }

    /// Text safe in a table cell: `|` escaped, one line.
    static func cell(_ text: String) -> String {
        text.map { $0 == "|" ? "\\|" : $0 == "\n" ? " " : String($0) }.joined()
    }
}
