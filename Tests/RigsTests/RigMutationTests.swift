import Foundation
import RigFormat
import Testing

/// Generated rig variants (what found the defects of issue 11, as a regression test): every key of the
/// shipped rigs misspelt by one edit must be refused with a did-you-mean naming the right key, and every
/// number replaced by 1.5, -1, 1e22 or 2^63 must be refused naming the field and the value as written —
/// unless the field's documented range holds it (listed below, so an accepted variant is a decision).
///
/// Serialized, and each test's variants made and checked on a thread of its own at the lowest priority (`atLowPriority`): they are
/// seconds of CPU work, and on a 2-core machine they must not hold the cooperative pool that timing tests
/// running beside them need (yielding between variants was not enough: the pool stayed starved ~6 s).
@Suite(.serialized) struct RigMutationTests {
    static let rigs = ["rigs/simulated.json", "rigs/simulated-faults.json", "rigs/lab-bench-example.json"]

    static func document(_ path: String) throws -> JSONNode {
        try JSONParser.parse(Array(try Data(contentsOf: RigTests.root.appendingPathComponent(path))))
    }

    /// JSON text for a value (the shipped rigs hold only plain strings, so simple quoting is exact).
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

    /// Every (path, key) of every object, and every (path, key-or-index) holding a number.
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

    @Test(arguments: rigs)
    func everyMisspeltKeyIsRefusedWithADidYouMean(rig: String) async throws {
        let (count, wrong) = try await atLowPriority { try Self.checkMisspellings(rig) }
        #expect(count > 150, "the generator made \(count) variants of \(rig)")
        #expect(wrong.isEmpty, "\(wrong.count) of \(count) misspellings were not refused with the right did-you-mean:\n\(wrong.prefix(20).joined(separator: "\n"))")
    }

    /// The misspelt variants of `rig`, and those not refused with the right did-you-mean.
    static func checkMisspellings(_ rig: String) throws -> (count: Int, wrong: [String]) {
        let document = try Self.document(rig)
        var variants: [(fieldPath: String, key: String, text: String)] = []
        var done = Set<String>()
        Self.walk(document, path: "") { path, node in
            guard case .object(let members) = node.value else { return }
            let siblings = Set(members.map(\.key))
            // Each key of each kind of object once: accessories[1].power is read as accessories[0].power is.
            let pattern = path.replacingOccurrences(of: #"\[[0-9]+\]"#, with: "[]", options: .regularExpression)
            for member in members where done.insert("\(pattern).\(member.key)").inserted {
                // A misspelling that is another key of the same object (ports → port) is not one.
                for misspelt in Self.misspellings(of: member.key) where !siblings.contains(misspelt) && !Self.otherKeys.contains(misspelt) {
                    let mutated = JSONNode(.object(members.map { $0.key == member.key ? JSONMember(key: misspelt, keyPosition: $0.keyPosition, value: $0.value) : $0 }),
                                           at: node.position)
                    let text = Self.render(Self.replacing(document, at: path) { _ in mutated })
                    variants.append((path.isEmpty ? misspelt : "\(path).\(misspelt)", member.key, text))
                }
            }
        }
        var wrong: [String] = []
        for (fieldPath, key, text) in variants {
            // One edit can be as close to two keys (econnectMilliseconds: reconnect…, connect…): the right
            // key must then be among those named.
            let message = RigTests.message(Data(text.utf8))
            let prefix = "\(fieldPath): unknown key; did you mean "
            let named = message.hasPrefix(prefix) && message.hasSuffix("?")
                ? message.dropFirst(prefix.count).dropLast().replacingOccurrences(of: " or ", with: ", ").components(separatedBy: ", ") : []
            if !named.contains(key) { wrong.append("\(fieldPath): \(message)") }
        }
        return (variants.count, wrong)
    }

    /// Keys of the objects above that a misspelling may produce.
    static let otherKeys: Set<String> = ["port", "ports"]

    /// Values a field's documented range holds: 1.5 for a duration (ms or s) with no minimum above it,
    /// -1 dBm for an RSSI.
    static func isInRange(_ value: String, key: String) -> Bool {
        switch value {
        case "1.5":
            let fractionalDurations = ["Milliseconds", "Seconds"].contains { key.hasSuffix($0) }
            return fractionalDurations && !["supervisionTimeoutMilliseconds", "connectionIntervalMilliseconds", "advertisingIntervalMilliseconds"].contains(key)
        case "-1": return key == "rssi"
        default: return false
        }
    }

    @Test(arguments: rigs)
    func everyNumberOutOfItsFieldIsRefusedNamingTheFieldAndTheValue(rig: String) async throws {
        let (count, wrong) = try await atLowPriority { try Self.checkNumbers(rig) }
        #expect(count >= 20, "\(rig) has \(count) numbers")
        #expect(wrong.isEmpty, "\(wrong.count) variants of \(rig) went wrong:\n\(wrong.prefix(20).joined(separator: "\n"))")
    }

    /// How many numbers `rig` holds, and the variants of them that went wrong.
    static func checkNumbers(_ rig: String) throws -> (count: Int, wrong: [String]) {
        let document = try Self.document(rig)
        var numbers: [String] = []
        Self.walk(document, path: "") { path, node in
            if case .number = node.value { numbers.append(path) }
        }
        var wrong: [String] = []
        for path in numbers {
            let key = path.split(separator: ".").last.map { String($0.split(separator: "[").first ?? "") } ?? path
            for value in ["1.5", "-1", "1e22", "9223372036854775808"] {
                let text = Self.render(Self.replacing(document, at: path) { JSONNode(.number(value), at: $0.position) })
                let message = RigTests.message(Data(text.utf8))
                if Self.isInRange(value, key: key) {
                    if message != "no error" { wrong.append("\(path) = \(value) is in range but: \(message)") }
                } else if !(message.hasPrefix("\(path): ") && message.hasSuffix("found \(value)")) {
                    wrong.append("\(path) = \(value): \(message)")
                }
            }
        }
        return (numbers.count, wrong)
    }
}
