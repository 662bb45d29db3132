import Foundation
import StrictJSON

/// One generated variant of a rig file: what was changed at which field path, and the rig after the change.
struct RigVariant: Sendable {
    enum Change: Sendable, Equatable {
        /// The key at `path` was written `misspelt` (path ends in the misspelling; `key` is the right one).
        case misspeltKey(key: String)
        /// The number at `path` was replaced by this number text.
        case number(String)
        /// The value at `path` was replaced by a value of another JSON type (its JSON text).
        case otherType(String)
        /// The string at `path` was replaced by this string.
        case string(String)
        /// The member at `path` was removed.
        case removed
    }

    let path: String
    let change: Change
    /// The rig after the change.
    let document: JSONNode

    /// The rig's JSON text after the change (rendered when asked: variants are often filtered first).
    var text: String { RigVariants.render(document) }

    /// `path` with array indices dropped (`accessories[].power.port`) but a switch's: each field of each kind
    /// of object once (the switches of `powerSwitches` are each of their own kind).
    var pattern: String { RigVariants.pattern(path) }
}

/// Rig variants made from a rig file's parsed document: misspelt keys, numbers replaced, values of another
/// type, strings replaced, members removed. RigMutationTests checks the reader's message for the first
/// two; RigSchemaAgreementTests checks that jsonschema and the reader agree on all of them.
enum RigVariants {
    static func document(_ path: String) throws -> JSONNode {
        try JSONParser.parse(Array(try Data(contentsOf: RigTests.root.appendingPathComponent(path))))
    }

    /// JSON text for a value (the rigs hold only plain strings, so simple quoting is exact).
    static func render(_ node: JSONNode) -> String {
        switch node.value {
        case .object(let members): return "{" + members.map { "\(quote($0.key)): \(render($0.value))" }.joined(separator: ", ") + "}"
        case .array(let items): return "[" + items.map(render).joined(separator: ", ") + "]"
        case .string(let text): return quote(text)
        case .number(let text): return text
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        }
    }

    static func quote(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    static func pattern(_ path: String) -> String {
        path.replacingOccurrences(of: #"(?<!^powerSwitches)\[[0-9]+\]"#, with: "[]", options: .regularExpression)
    }

    /// Every (path, node) of the document, parents before their members and elements.
    static func walk(_ node: JSONNode, path: String, visit: (String, JSONNode) -> Void) {
        visit(path, node)
        switch node.value {
        case .object(let members):
            for member in members { walk(member.value, path: path.isEmpty ? member.key : "\(path).\(member.key)", visit: visit) }
        case .array(let items):
            for (index, item) in items.enumerated() { walk(item, path: "\(path)[\(index)]", visit: visit) }
        default: break
        }
    }

    /// A copy of `node` with the value at `target` transformed.
    static func replacing(_ node: JSONNode, at target: String, path: String = "", with transform: (JSONNode) -> JSONNode) -> JSONNode {
        if path == target { return transform(node) }
        var copy = node
        switch node.value {
        case .object(let members):
            copy.value = .object(members.map { member in
                var member = member
                member.value = replacing(member.value, at: target, path: path.isEmpty ? member.key : "\(path).\(member.key)", with: transform)
                return member
            })
        case .array(let items):
            copy.value = .array(items.enumerated().map { replacing($1, at: target, path: "\(path)[\($0)]", with: transform) })
        default: break
        }
        return copy
    }

    /// The document with the object at `path` given other members.
    static func withMembers(_ document: JSONNode, at path: String, _ members: [JSONMember]) -> JSONNode {
        replacing(document, at: path) { JSONNode(.object(members), at: $0.position) }
    }

    /// Misspellings by one edit, of each kind (deletion, adjacent transposition, substitution, insertion)
    /// at the start, the middle and the end of the key.
    static func misspellings(of key: String) -> Set<String> {
        let characters = Array(key)
        var result = Set<String>()
        for index in Set([0, characters.count / 2, characters.count - 1]) {
            if characters.count > 1 {
                var deleted = characters
                deleted.remove(at: index)
                result.insert(String(deleted))
            }
            if index + 1 < characters.count, characters[index] != characters[index + 1] {
                var swapped = characters
                swapped.swapAt(index, index + 1)
                result.insert(String(swapped))
            }
            var substituted = characters
            substituted[index] = substituted[index] == "q" ? "z" : "q"
            result.insert(String(substituted))
            var inserted = characters
            inserted.insert("q", at: index)
            result.insert(String(inserted))
        }
        result.insert(key + "q")
        result.remove(key)
        return result
    }

    /// Keys of the rigs' objects that a misspelling may produce.
    static let otherKeys: Set<String> = ["port", "ports"]

    /// Every key of each kind of object (accessories[1].power is read as accessories[0].power is) misspelt
    /// by one edit, unless the misspelling is another key of that object (ports → port).
    static func misspeltKeys(_ document: JSONNode) -> [RigVariant] {
        var variants: [RigVariant] = []
        var done = Set<String>()
        walk(document, path: "") { path, node in
            guard case .object(let members) = node.value else { return }
            let siblings = Set(members.map(\.key))
            for member in members where done.insert("\(pattern(path)).\(member.key)").inserted {
                for misspelt in misspellings(of: member.key) where !siblings.contains(misspelt) && !otherKeys.contains(misspelt) {
                    let renamed = members.map { $0.key == member.key ? JSONMember(key: misspelt, keyPosition: $0.keyPosition, value: $0.value) : $0 }
                    variants.append(RigVariant(path: path.isEmpty ? misspelt : "\(path).\(misspelt)", change: .misspeltKey(key: member.key),
                                               document: withMembers(document, at: path, renamed)))
                }
            }
        }
        return variants
    }

    /// Every number of the document replaced by each of `values` (only the first of each kind of field when
    /// `firstOfEachField`).
    static func numbers(_ document: JSONNode, _ values: [String], firstOfEachField: Bool = false) -> [RigVariant] {
        var variants: [RigVariant] = []
        var done = Set<String>()
        walk(document, path: "") { path, node in
            guard case .number = node.value, !firstOfEachField || done.insert(pattern(path)).inserted else { return }
            for value in values {
                variants.append(RigVariant(path: path, change: .number(value),
                                           document: replacing(document, at: path) { JSONNode(.number(value), at: $0.position) }))
            }
        }
        return variants
    }

    /// One value of each JSON type, as JSON text.
    static let valuesOfEachType: [JSONValue] = [.string("x"), .number("7"), .bool(true), .null, .array([]), .object([])]

    /// The value of each field of each kind of object replaced by a value of each other JSON type.
    static func otherTypes(_ document: JSONNode) -> [RigVariant] {
        var variants: [RigVariant] = []
        var done = Set<String>()
        walk(document, path: "") { path, node in
            guard !path.isEmpty, done.insert(pattern(path)).inserted else { return }
            for value in valuesOfEachType where kind(value) != kind(node.value) {
                let replacement = JSONNode(value, at: node.position)
                variants.append(RigVariant(path: path, change: .otherType(render(replacement)),
                                           document: replacing(document, at: path) { _ in replacement }))
            }
        }
        return variants
    }

    /// Each string of each kind of field replaced by each of `values(string)` that differs from it.
    static func strings(_ document: JSONNode, _ values: (String) -> [String]) -> [RigVariant] {
        var variants: [RigVariant] = []
        var done = Set<String>()
        walk(document, path: "") { path, node in
            guard case .string(let original) = node.value, done.insert(pattern(path)).inserted else { return }
            for value in values(original) where value != original {
                variants.append(RigVariant(path: path, change: .string(value),
                                           document: replacing(document, at: path) { JSONNode(.string(value), at: $0.position) }))
            }
        }
        return variants
    }

    /// Each member of each kind of object removed.
    static func removals(_ document: JSONNode) -> [RigVariant] {
        var variants: [RigVariant] = []
        var done = Set<String>()
        walk(document, path: "") { path, node in
            guard case .object(let members) = node.value else { return }
            for member in members where done.insert("\(pattern(path)).\(member.key)").inserted {
                variants.append(RigVariant(path: path.isEmpty ? member.key : "\(path).\(member.key)", change: .removed,
                                           document: withMembers(document, at: path, members.filter { $0.key != member.key })))
            }
        }
        return variants
    }

    static func kind(_ value: JSONValue) -> Int {
        switch value {
        case .string: 0
        case .number: 1
        case .bool: 2
        case .null: 3
        case .array: 4
        case .object: 5
        }
    }
}
