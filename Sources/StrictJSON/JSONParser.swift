/// A strict RFC 8259 JSON parser that keeps the line and column of every value: recursive descent over
/// the UTF-8 bytes, within `InputLimits` (nesting, string and number lengths). Rejects everything the grammar
/// does not allow (comments, trailing commas, leading zeros, unescaped control characters, lone
/// surrogates, invalid UTF-8) and repeated keys in one object, each with the line and column:
/// `line 12, column 5: expected ',' or '}' after an object member, found '"'`. A value past a limit is named
/// by its field path too (`steps[0].do: a string of 70000 bytes at line 1, column 33, more than …`).
package struct JSONParser {
    /// One step of the field path to the value being read.
    enum PathPart {
        case key(String)
        case index(Int)
    }

    let bytes: [UInt8]
    let limits: InputLimits
    var index = 0
    var line = 1
    var column = 1
    var depth = 0
    /// Where the parser is: the keys and indices of the containers open, outermost first.
    var path: [PathPart] = []

    /// Parses one JSON text (optionally after a UTF-8 byte order mark).
    package static func parse(_ bytes: some Collection<UInt8>, limits: InputLimits = .standard) throws(InputError) -> JSONNode {
        var parser = JSONParser(bytes: Array(bytes), limits: limits)
        return try parser.document()
    }

    /// Parses one JSON text given as a string.
    package static func parse(_ text: String, limits: InputLimits = .standard) throws(InputError) -> JSONNode {
        try parse(Array(text.utf8), limits: limits)
    }

    private init(bytes: [UInt8], limits: InputLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    /// The field path being read, as `InputValue` writes it (`steps[0].do`); empty at the top level.
    var fieldPath: String {
        var text = ""
        for part in path {
            switch part {
            case .key(let key): text += text.isEmpty ? key : "." + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    var position: JSONPosition { JSONPosition(line: line, column: column) }
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func advance() {
        guard index < bytes.count else { return }
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
    }

    func fail(_ message: String) -> InputError {
        InputError(at: position, "\(message), found \(foundDescription)")
    }

    /// The next character, for "found …".
    var foundDescription: String {
        guard let byte = current else { return "the end of the file" }
        switch byte {
        case UInt8(ascii: "\n"), UInt8(ascii: "\r"): return "a line break"
        case UInt8(ascii: "\t"): return "a tab"
        case 0x20...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        default:
            if let scalar = scalarAt(index) { return "U+\(String(scalar.value, radix: 16, uppercase: true))" }
            return "the byte 0x\(String(byte, radix: 16, uppercase: true)) (not UTF-8)"
        }
    }

    /// The Unicode scalar whose UTF-8 encoding starts at `start`, if it is valid UTF-8.
    func scalarAt(_ start: Int) -> Unicode.Scalar? {
        let lead = bytes[start]
        let length: Int
        switch lead {
        case 0x00...0x7F: return Unicode.Scalar(lead)
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return nil
        }
        guard start + length <= bytes.count else { return nil }
        var decoder = UTF8()
        var iterator = bytes[start..<(start + length)].makeIterator()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return scalar }
        return nil
    }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { advance() }
    }

    private mutating func document() throws(InputError) -> JSONNode {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        let root = try value()
        skipWhitespace()
        guard current == nil else { throw fail("expected the end of the file after the JSON value") }
        return root
    }

    private mutating func value() throws(InputError) -> JSONNode {
        let start = position
        guard let byte = current else { throw fail("expected a JSON value") }
        switch byte {
        case UInt8(ascii: "{"): return JSONNode(try object(), at: start)
        case UInt8(ascii: "["): return JSONNode(try array(), at: start)
        case UInt8(ascii: "\""): return JSONNode(.string(try string(what: "a string")), at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return JSONNode(.number(try number()), at: start)
        case UInt8(ascii: "t"): try literal("true"); return JSONNode(.bool(true), at: start)
        case UInt8(ascii: "f"): try literal("false"); return JSONNode(.bool(false), at: start)
        case UInt8(ascii: "n"): try literal("null"); return JSONNode(.null, at: start)
        case UInt8(ascii: "/"): throw fail("expected a JSON value (JSON has no comments)")
        default: throw fail("expected a JSON value")
        }
    }

    mutating func literal(_ word: String) throws(InputError) {
        let start = position
        for byte in word.utf8 {
            guard current == byte else {
                throw InputError(at: start, "expected a JSON value (true, false or null?), found '\(word.prefix(1))…'")
            }
            advance()
        }
        if let byte = current, Self.isLetterOrDigit(byte) {
            throw InputError(at: start, "expected a JSON value (\(word) followed by '\(Character(Unicode.Scalar(byte)))' is not one)")
        }
    }

    static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
    }

    private mutating func enter() throws(InputError) {
        depth += 1
        guard depth <= limits.nestingDepth else {
            throw InputError(at: position, InputLimits.exceeded("arrays and objects nested \(depth) deep", limit: "nestingDepth", value: limits.nestingDepth))
        }
    }

    /// Steps past `close` and out of the array or object it ends, when it is the next byte.
    private mutating func leave(at close: Unicode.Scalar) -> Bool {
        guard current == UInt8(ascii: close) else { return false }
        advance()
        depth -= 1
        return true
    }

    private mutating func object() throws(InputError) -> JSONValue {
        try enter()
        advance()  // {
        var members: [JSONMember] = []
        var seen: [String: JSONPosition] = [:]
        skipWhitespace()
        if leave(at: "}") { return .object([]) }
        while true {
            skipWhitespace()
            let keyPosition = position
            guard current == UInt8(ascii: "\"") else {
                throw fail(members.isEmpty ? "expected a string key or '}' in an object" : "expected a string key after ',' (no trailing commas in JSON)")
            }
            let key = try string(what: "a key")
            if let first = seen[key] {
                throw InputError(at: keyPosition, "the key \(JSONValue.quote(key)) appears twice in one object (first at \(first))")
            }
            seen[key] = keyPosition
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw fail("expected ':' after the object key \(JSONValue.quote(key))") }
            advance()
            skipWhitespace()
            path.append(.key(key))
            members.append(JSONMember(key: key, keyPosition: keyPosition, value: try value()))
            path.removeLast()
            skipWhitespace()
            if leave(at: "}") { return .object(members) }
            guard current == UInt8(ascii: ",") else { throw fail("expected ',' or '}' after an object member") }
            advance()
        }
    }

    private mutating func array() throws(InputError) -> JSONValue {
        try enter()
        advance()  // [
        var items: [JSONNode] = []
        skipWhitespace()
        if leave(at: "]") { return .array([]) }
        while true {
            skipWhitespace()
            if current == UInt8(ascii: "]") { throw fail("expected a JSON value after ',' (no trailing commas in JSON)") }
            path.append(.index(items.count))
            items.append(try value())
            path.removeLast()
            skipWhitespace()
            if leave(at: "]") { return .array(items) }
            guard current == UInt8(ascii: ",") else { throw fail("expected ',' or ']' after an array element") }
            advance()
        }
    }
}
