/// A coding key for any field name or array index.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { self.stringValue = "\(intValue)"; self.intValue = intValue }
}

/// `powerSwitches[1].ports[0]`.
func renderPath(_ path: [any CodingKey]) -> String {
    var text = ""
    for key in path {
        if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
    }
    return text.isEmpty ? "(top level)" : text
}

/// Any JSON value, decoded only to quote it in an error message.
enum JSONValue: Decodable, CustomStringConvertible {
    case string(String), number(Double), bool(Bool), null, array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { self = .null }
        else if let value = try? single.decode(Bool.self) { self = .bool(value) }
        else if let value = try? single.decode(Double.self) { self = .number(value) }
        else if let value = try? single.decode(String.self) { self = .string(value) }
        else if let value = try? single.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try single.decode([String: JSONValue].self)) }
    }

    var description: String {
        switch self {
        case .string(let text): return "\"\(text)\""
        case .number(let value): return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .bool(let value): return String(value)
        case .null: return "null"
        case .array(let values): return "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .object(let fields): return "{" + fields.keys.sorted().map { "\"\($0)\": \(fields[$0]?.description ?? "")" }.joined(separator: ", ") + "}"
        }
    }
}

/// Reads the fields of one JSON object, each failure naming the path and the value found.
struct RigFields {
    let container: KeyedDecodingContainer<AnyKey>
    let path: [any CodingKey]

    init(_ decoder: any Decoder) throws {
        path = decoder.codingPath
        do { container = try decoder.container(keyedBy: AnyKey.self) } catch {
            let found = (try? JSONValue(from: decoder))?.description ?? "something else"
            throw PowerSwitchError(.invalidInput, "\(renderPath(decoder.codingPath)): expected an object, found \(found)")
        }
    }

    func has(_ key: String) -> Bool { container.contains(AnyKey(key)) }

    func fieldPath(_ key: String, _ index: Int? = nil) -> String {
        renderPath(path + [AnyKey(key)]) + (index.map { "[\($0)]" } ?? "")
    }

    func found(_ key: String) -> String {
        (try? container.decode(JSONValue.self, forKey: AnyKey(key)))?.description ?? "nothing"
    }

    func fail(_ key: String, expected: String, found: String? = nil, index: Int? = nil) -> PowerSwitchError {
        PowerSwitchError(.invalidInput, "\(fieldPath(key, index)): expected \(expected), found \(found ?? self.found(key))")
    }

    func missing(_ key: String, _ expected: String) -> PowerSwitchError {
        PowerSwitchError(.invalidInput, "\(fieldPath(key)): missing; expected \(expected)")
    }

    func string(_ key: String, _ expected: String = "a non-empty string") throws -> String {
        guard has(key) else { throw missing(key, expected) }
        guard let value = try? container.decode(String.self, forKey: AnyKey(key)), !value.isEmpty else { throw fail(key, expected: expected) }
        return value
    }

    func optionalString(_ key: String, _ expected: String = "a non-empty string") throws -> String? {
        guard has(key) else { return nil }
        return try string(key, expected)
    }

    func bool(_ key: String, default value: Bool) throws -> Bool {
        guard has(key) else { return value }
        guard let decoded = try? container.decode(Bool.self, forKey: AnyKey(key)) else { throw fail(key, expected: "true or false") }
        return decoded
    }

    func number(_ key: String, in range: ClosedRange<Double>, default value: Double) throws -> Double {
        guard has(key) else { return value }
        guard let decoded = try? container.decode(Double.self, forKey: AnyKey(key)), range.contains(decoded) else {
            throw fail(key, expected: "a number from \(JSONValue.number(range.lowerBound)) to \(JSONValue.number(range.upperBound))")
        }
        return decoded
    }

    func seconds(_ key: String, max: Double = 600, default value: Double) throws -> Duration {
        let seconds = try number(key, in: 0.001...max, default: value)
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// A command line: a non-empty array of strings, the first non-empty.
    func argv(_ key: String, required: Bool) throws -> [String]? {
        guard has(key) else {
            if required { throw missing(key, "a command line as an array of strings, e.g. [\"pdu\", \"on\", \"3\"]") }
            return nil
        }
        guard let values = try? container.decode([JSONValue].self, forKey: AnyKey(key)) else {
            throw fail(key, expected: "a command line as an array of strings (no shell is used)")
        }
        guard !values.isEmpty else { throw fail(key, expected: "a non-empty array of strings") }
        return try values.enumerated().map { index, value in
            guard case .string(let text) = value, !(index == 0 && text.isEmpty) else {
                throw fail(key, expected: index == 0 ? "a program name" : "a string", found: value.description, index: index)
            }
            return text
        }
    }

    /// `ports: [2, 3]` or `port: 2`, each 1…255.
    func ports() throws -> [Int] {
        switch (has("ports"), has("port")) {
        case (true, true):
            throw PowerSwitchError(.invalidInput, "\(fieldPath("port")): give either \"port\" or \"ports\", not both")
        case (false, false):
            throw missing("ports", "an array of port numbers, e.g. [2]")
        case (false, true):
            return [try port(found("port"), key: "port", index: nil)]
        case (true, false):
            guard let values = try? container.decode([JSONValue].self, forKey: AnyKey("ports")), !values.isEmpty else {
                throw fail("ports", expected: "a non-empty array of port numbers")
            }
            var seen = Set<Int>()
            return try values.enumerated().map { index, value in
                let port = try self.port(value.description, key: "ports", index: index)
                guard seen.insert(port).inserted else { throw fail("ports", expected: "each port once", found: value.description, index: index) }
                return port
            }
        }
    }

    private func port(_ text: String, key: String, index: Int?) throws -> Int {
        guard let value = Double(text), value == value.rounded(), (1...255).contains(value) else {
            throw fail(key, expected: "a port number from 1 to 255", found: text, index: index)
        }
        return Int(value)
    }

    /// Rejects fields this kind does not know, naming them.
    func rejectUnknown(allowed: Set<String>, kind: String) throws {
        for key in container.allKeys where !allowed.contains(key.stringValue) {
            throw PowerSwitchError(.invalidInput, "\(fieldPath(key.stringValue)): unknown field for kind \"\(kind)\" (known: \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    func nested(_ key: String) throws -> RigFields? {
        guard has(key) else { return nil }
        return try RigFields(container.superDecoder(forKey: AnyKey(key)))
    }
}
