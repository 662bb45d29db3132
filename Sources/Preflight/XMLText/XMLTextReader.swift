import Foundation

/// A strict, small XML 1.0 reader for Info.plist and AndroidManifest.xml.
///
/// Builds a `XMLTextElement` tree with the line and column of every start tag and resolves namespace
/// prefixes. Rejects what is not well-formed — mismatched or unclosed tags, duplicate attributes, unbound
/// prefixes, unknown entities, text outside the root — with the line and column of the fault. Skips the
/// XML declaration, processing instructions, comments and the DOCTYPE (internal subsets are not expanded).
/// Holds to `ReaderLimits` (nesting depth, attributes, elements, string lengths) without recursion.
package struct XMLTextReader {
    private let bytes: [UInt8]
    private let file: String
    private let limits: ReaderLimits
    /// Counts the duplicate-attribute checks' name comparisons.
    private let comparisons: NameComparisons
    private var elementCount = 0
    private var attributeCount = 0
    private var position = 0
    // Incremental line/column tracking: `line` and `column` are those of byte `trackedOffset`.
    private var trackedOffset = 0
    private var line = 1
    private var column = 1

    /// Parses `data` (UTF-8, or UTF-16 with a byte-order mark); `file` names it in errors.
    package static func parse(_ data: Data, file: String, limits: ReaderLimits = .standard) throws(PreflightError) -> XMLTextElement {
        try parse(data, file: file, limits: limits, counting: NameComparisons())
    }

    /// `parse`, counting into `comparisons` how often the duplicate-attribute checks compared two names.
    static func parse(_ data: Data, file: String, limits: ReaderLimits = .standard,
                      counting comparisons: NameComparisons) throws(PreflightError) -> XMLTextElement {
        var reader = XMLTextReader(bytes: try decode(data, file: file), file: file, limits: limits, comparisons: comparisons)
        return try reader.document()
    }

    private static func decode(_ data: Data, file: String) throws(PreflightError) -> [UInt8] {
        let raw = [UInt8](data)
        if raw.starts(with: [0xEF, 0xBB, 0xBF]) { return Array(raw.dropFirst(3)) }
        if raw.starts(with: [0xFF, 0xFE]) || raw.starts(with: [0xFE, 0xFF]) {
            guard let text = String(data: data, encoding: .utf16) else {
                throw .xmlSyntax(file: file, line: 1, column: 1, message: "invalid UTF-16 text")
            }
            return Array(text.utf8)
        }
        guard String(validating: raw, as: UTF8.self) != nil else {
            let bad = firstInvalidUTF8(raw)
            let prefix = raw[0..<bad]
            let lineNumber = prefix.filter { $0 == 0x0A }.count + 1
            let lineStart = prefix.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
            let columnNumber = raw[lineStart..<bad].filter { $0 & 0xC0 != 0x80 }.count + 1
            let byte = bad < raw.count ? raw[bad] : 0
            throw .xmlSyntax(file: file, line: lineNumber, column: columnNumber, message: "invalid UTF-8 byte 0x\(String(byte, radix: 16))")
        }
        return raw
    }

    /// The offset of the first byte that does not begin a well-formed UTF-8 sequence.
    private static func firstInvalidUTF8(_ raw: [UInt8]) -> Int {
        var index = 0
        while index < raw.count {
            let lead = raw[index]
            let length: Int
            switch lead {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return index
            }
            guard index + length <= raw.count,
                  String(validating: raw[index..<(index + length)], as: UTF8.self) != nil else { return index }
            index += length
        }
        return min(index, max(raw.count - 1, 0))
    }

    // MARK: Positions and errors

    /// Line and column of byte `offset` (column counts characters, not bytes).
    private mutating func location(of offset: Int) -> (line: Int, column: Int) {
        if offset < trackedOffset {
            trackedOffset = 0
            line = 1
            column = 1
        }
        while trackedOffset < offset, trackedOffset < bytes.count {
            let byte = bytes[trackedOffset]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            trackedOffset += 1
        }
        return (line, column)
    }

    private mutating func failure(_ message: String, at offset: Int? = nil) -> PreflightError {
        let spot = location(of: offset ?? position)
        return .xmlSyntax(file: file, line: spot.line, column: spot.column, message: message)
    }

    private mutating func overLimit(
        _ what: String, _ limit: String, _ value: Int, at offset: Int, path: [String]
    ) -> PreflightError {
        let spot = location(of: offset)
        return .limit(what, limit: limit, value: value, file: file, location: "\(spot.line):\(spot.column)", path: path)
    }

    // MARK: Scanning helpers

    private var atEnd: Bool { position >= bytes.count }

    private func peek(_ ahead: Int = 0) -> UInt8? {
        position + ahead < bytes.count ? bytes[position + ahead] : nil
    }

    private func looking(at literal: String) -> Bool {
        let utf8 = Array(literal.utf8)
        guard position + utf8.count <= bytes.count else { return false }
        return bytes[position..<(position + utf8.count)].elementsEqual(utf8)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    private mutating func skipSpace() {
        while let byte = peek(), Self.isSpace(byte) { position += 1 }
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte == 0x3A || byte >= 0x80
    }

    private static func isNameChar(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E
    }

    private mutating func name(_ what: String) throws(PreflightError) -> String {
        let start = position
        guard let first = peek(), Self.isNameStart(first) else {
            throw failure(atEnd ? "unexpected end of file, expected \(what)" : "expected \(what), found \(describe(peek()))")
        }
        position += 1
        while let byte = peek(), Self.isNameChar(byte) { position += 1 }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private func describe(_ byte: UInt8?) -> String {
        guard let byte else { return "end of file" }
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if Self.isSpace(byte) { return "whitespace" }
        return "byte 0x\(String(byte, radix: 16))"
    }

    private mutating func expect(_ literal: String, _ context: String) throws(PreflightError) {
        guard looking(at: literal) else {
            throw failure("expected '\(literal)' \(context), found \(describe(peek()))")
        }
        position += literal.utf8.count
    }

    /// Skips up to and past `terminator`; fails at end of file naming what was open.
    private mutating func skip(past terminator: String, opened: String, at start: Int) throws(PreflightError) {
        while !atEnd {
            if looking(at: terminator) {
                position += terminator.utf8.count
                return
            }
            position += 1
        }
        let spot = location(of: start)
        throw failure("unexpected end of file: \(opened) opened at \(spot.line):\(spot.column) is not closed")
    }

    // MARK: Grammar

    private struct OpenElement {
        var element: XMLTextElement
        var qualifiedName: String
        var start: Int
        var namespaces: [String: String]
    }

    private mutating func document() throws(PreflightError) -> XMLTextElement {
        var stack: [OpenElement] = []
        var root: XMLTextElement?
        let baseNamespaces: [String: String] = ["xml": "http://www.w3.org/XML/1998/namespace"]

        while !atEnd {
            let start = position
            if looking(at: "<?") {
                position += 2
                try skip(past: "?>", opened: "processing instruction", at: start)
            } else if looking(at: "<!--") {
                position += 4
                try skip(past: "-->", opened: "comment", at: start)
            } else if looking(at: "<![CDATA[") {
                guard !stack.isEmpty else { throw failure("CDATA section outside the root element") }
                position += 9
                let textStart = position
                try skip(past: "]]>", opened: "CDATA section", at: start)
                try appendText(String(decoding: bytes[textStart..<(position - 3)], as: UTF8.self), to: &stack, at: start)
            } else if looking(at: "<!DOCTYPE") {
                guard stack.isEmpty, root == nil else { throw failure("DOCTYPE inside the document") }
                position += 9
                try skipDoctype(start: start)
            } else if looking(at: "</") {
                position += 2
                let nameStart = position
                let closing = try name("element name after '</'")
                skipSpace()
                try expect(">", "to end the tag </\(closing)")
                guard let open = stack.popLast() else {
                    throw failure("end tag </\(closing)> without a start tag", at: nameStart - 2)
                }
                guard open.qualifiedName == closing else {
                    let spot = location(of: open.start)
                    throw failure("end tag </\(closing)> does not match <\(open.qualifiedName)> opened at \(spot.line):\(spot.column)", at: nameStart - 2)
                }
                if stack.isEmpty {
                    root = open.element
                } else {
                    stack[stack.count - 1].element.children.append(open.element)
                }
            } else if peek() == 0x3C {  // '<'
                guard root == nil || !stack.isEmpty else { throw failure("content after the root element") }
                position += 1
                let inherited = stack.last?.namespaces ?? baseNamespaces
                var open = try startTag(start: start, namespaces: inherited, parents: stack)
                guard stack.count < limits.nestingDepth else {
                    throw overLimit("<\(open.qualifiedName)> nested \(stack.count + 1) deep", "nestingDepth", limits.nestingDepth,
                                    at: start, path: stack.map(\.qualifiedName))
                }
                if looking(at: "/>") {
                    position += 2
                    if stack.isEmpty {
                        root = open.element
                    } else {
                        stack[stack.count - 1].element.children.append(open.element)
                    }
                } else {
                    try expect(">", "to end the start tag <\(open.qualifiedName)")
                    open.element.text = ""
                    stack.append(open)
                }
            } else {
                // Character data.
                let textStart = position
                while let byte = peek(), byte != 0x3C { position += 1 }
                let raw = bytes[textStart..<position]
                if stack.isEmpty {
                    if let bad = raw.firstIndex(where: { !Self.isSpace($0) }) {
                        throw failure(root == nil ? "text before the root element" : "text after the root element", at: bad)
                    }
                } else {
                    try appendText(try decodeEntities(raw), to: &stack, at: textStart)
                }
            }
        }
        if let open = stack.last {
            let spot = location(of: open.start)
            throw failure("unexpected end of file: <\(open.qualifiedName)> opened at \(spot.line):\(spot.column) is not closed")
        }
        guard let root else { throw failure("no root element") }
        return root
    }

    /// Adds character data to the innermost open element, within `ReaderLimits.stringBytes`.
    private mutating func appendText(_ text: String, to stack: inout [OpenElement], at offset: Int) throws(PreflightError) {
        let total = stack[stack.count - 1].element.text.utf8.count + text.utf8.count
        guard total <= limits.stringBytes else {
            throw overLimit("text of \(total) bytes", "stringBytes", limits.stringBytes, at: offset, path: stack.map(\.qualifiedName))
        }
        stack[stack.count - 1].element.text += text
    }

    private mutating func skipDoctype(start: Int) throws(PreflightError) {
        var depth = 0
        while let byte = peek() {
            position += 1
            switch byte {
            case 0x5B: depth += 1  // [
            case 0x5D: depth -= 1  // ]
            case 0x3E where depth <= 0: return  // >
            default: break
            }
        }
        let spot = location(of: start)
        throw failure("unexpected end of file: DOCTYPE opened at \(spot.line):\(spot.column) is not closed")
    }

    private mutating func startTag(start: Int, namespaces inherited: [String: String], parents: [OpenElement]) throws(PreflightError) -> OpenElement {
        let qualifiedName = try name("element name after '<'")
        elementCount += 1
        guard elementCount <= limits.values else {
            throw overLimit("element number \(elementCount)", "values", limits.values, at: start, path: parents.map(\.qualifiedName) + [qualifiedName])
        }
        var rawAttributes: [(name: String, value: String, offset: Int)] = []
        // One set per element: the duplicate check is linear in the attributes, not quadratic.
        var rawNames: Set<CountedName<String>> = []
        while true {
            let hadSpace = peek().map(Self.isSpace) ?? false
            skipSpace()
            guard let byte = peek() else {
                throw failure("unexpected end of file inside the start tag <\(qualifiedName)>")
            }
            if byte == 0x3E || looking(at: "/>") { break }
            guard hadSpace else { throw failure("expected whitespace, '>' or '/>' in <\(qualifiedName)>, found \(describe(byte))") }
            let attributeStart = position
            let attributeName = try name("attribute name")
            skipSpace()
            try expect("=", "after attribute \(attributeName)")
            skipSpace()
            guard let quote = peek(), quote == 0x22 || quote == 0x27 else {
                throw failure("expected a quoted value for attribute \(attributeName), found \(describe(peek()))")
            }
            position += 1
            let valueStart = position
            while let byte = peek(), byte != quote {
                if byte == 0x3C { throw failure("'<' is not allowed in the value of attribute \(attributeName)") }
                position += 1
            }
            guard !atEnd else {
                throw failure("unexpected end of file in the value of attribute \(attributeName)", at: valueStart - 1)
            }
            guard position - valueStart <= limits.stringBytes else {
                throw overLimit("a value of \(position - valueStart) bytes for attribute \(attributeName)", "stringBytes", limits.stringBytes,
                                at: valueStart, path: parents.map(\.qualifiedName) + [qualifiedName])
            }
            let value = try decodeEntities(bytes[valueStart..<position], normalizeSpace: true)
            position += 1
            guard rawNames.insert(CountedName(attributeName, comparisons)).inserted else {
                throw failure("duplicate attribute \(attributeName) in <\(qualifiedName)>", at: attributeStart)
            }
            guard rawAttributes.count < limits.attributesPerElement else {
                throw overLimit("attribute number \(rawAttributes.count + 1) on one element", "attributesPerElement", limits.attributesPerElement,
                                at: attributeStart, path: parents.map(\.qualifiedName) + [qualifiedName])
            }
            attributeCount += 1
            guard attributeCount <= limits.attributesPerDocument else {
                throw overLimit("attribute number \(attributeCount) in the document", "attributesPerDocument", limits.attributesPerDocument,
                                at: attributeStart, path: parents.map(\.qualifiedName) + [qualifiedName])
            }
            rawAttributes.append((attributeName, value, attributeStart))
        }

        var namespaces = inherited
        for attribute in rawAttributes {
            if attribute.name == "xmlns" {
                namespaces[""] = attribute.value.isEmpty ? nil : attribute.value
            } else if attribute.name.hasPrefix("xmlns:") {
                let prefix = String(attribute.name.dropFirst(6))
                guard !attribute.value.isEmpty else { throw failure("namespace prefix \(prefix) bound to an empty URI", at: attribute.offset) }
                namespaces[prefix] = attribute.value
            }
        }
        let (elementPrefix, elementLocal) = split(qualifiedName)
        var elementNamespace: String?
        if let elementPrefix {
            guard let uri = namespaces[elementPrefix] else { throw failure("unbound namespace prefix '\(elementPrefix)' in <\(qualifiedName)>", at: start + 1) }
            elementNamespace = uri
        } else {
            elementNamespace = namespaces[""]
        }
        var attributes: [XMLTextAttribute] = []
        var resolvedNames: Set<CountedName<QualifiedName>> = []
        for attribute in rawAttributes where attribute.name != "xmlns" && !attribute.name.hasPrefix("xmlns:") {
            let (prefix, local) = split(attribute.name)
            var uri: String?
            if let prefix {
                guard let bound = namespaces[prefix] else {
                    throw failure("unbound namespace prefix '\(prefix)' in attribute \(attribute.name)", at: attribute.offset)
                }
                uri = bound
            }
            guard resolvedNames.insert(CountedName(QualifiedName(namespaceURI: uri, localName: local), comparisons)).inserted else {
                throw failure("duplicate attribute \(attribute.name) in <\(qualifiedName)>", at: attribute.offset)
            }
            attributes.append(XMLTextAttribute(namespaceURI: uri, localName: local, value: attribute.value))
        }
        let spot = location(of: start)
        let element = XMLTextElement(
            namespaceURI: elementNamespace, localName: elementLocal, attributes: attributes,
            line: spot.line, column: spot.column)
        return OpenElement(element: element, qualifiedName: qualifiedName, start: start, namespaces: namespaces)
    }

    /// An attribute's name as XML Namespaces §6.3 compares them: namespace URI and local name.
    private struct QualifiedName: Hashable {
        let namespaceURI: String?
        let localName: String
    }

    /// A name in a duplicate check's set: hashed as the name, and counting every comparison the set makes.
    private struct CountedName<Name: Hashable>: Hashable {
        let name: Name
        let comparisons: NameComparisons

        init(_ name: Name, _ comparisons: NameComparisons) {
            self.name = name
            self.comparisons = comparisons
        }

        static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.comparisons.count += 1
            return lhs.name == rhs.name
        }

        func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }

    private func split(_ qualifiedName: String) -> (prefix: String?, local: String) {
        guard let colon = qualifiedName.firstIndex(of: ":") else { return (nil, qualifiedName) }
        return (String(qualifiedName[..<colon]), String(qualifiedName[qualifiedName.index(after: colon)...]))
    }

    /// Decodes `&amp;`-style and numeric character references in a run of bytes starting at `start`.
    private mutating func decodeEntities(_ raw: ArraySlice<UInt8>, normalizeSpace: Bool = false) throws(PreflightError) -> String {
        guard raw.contains(0x26) || (normalizeSpace && raw.contains(where: { $0 == 0x0A || $0 == 0x09 || $0 == 0x0D })) else {
            return String(decoding: raw, as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            if byte == 0x26 {
                guard let semicolon = raw[index...].prefix(12).firstIndex(of: 0x3B) else {
                    throw failure("'&' that does not start an entity reference (write &amp;)", at: index)
                }
                let entity = String(decoding: raw[(index + 1)..<semicolon], as: UTF8.self)
                let scalar: Unicode.Scalar?
                switch entity {
                case "lt": scalar = "<"
                case "gt": scalar = ">"
                case "amp": scalar = "&"
                case "quot": scalar = "\""
                case "apos": scalar = "'"
                default:
                    if entity.hasPrefix("#x"), let code = UInt32(entity.dropFirst(2), radix: 16) {
                        scalar = Unicode.Scalar(code)
                    } else if entity.hasPrefix("#"), let code = UInt32(entity.dropFirst(1)) {
                        scalar = Unicode.Scalar(code)
                    } else {
                        throw failure("unknown entity &\(entity);", at: index)
                    }
                }
                guard let scalar, scalar.value != 0 else { throw failure("invalid character reference &\(entity);", at: index) }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
                index = semicolon + 1
            } else {
                if normalizeSpace && (byte == 0x0A || byte == 0x09 || byte == 0x0D) {
                    out.append(0x20)
                } else {
                    out.append(byte)
                }
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// How often the duplicate-attribute checks compared two attribute names: the work that grows with the
/// attributes of one element. A hashed set compares a new name only with the few it lands beside, so the
/// count grows linearly; a scan of the names before it would make it grow with their square. Tests read it
/// to check the reader stays linear (a time measurement would measure the machine).
final class NameComparisons {
    var count = 0
}
