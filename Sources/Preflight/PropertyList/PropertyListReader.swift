import Foundation

/// Reads property lists: XML (our own reader, keeping lines), binary (our own reader, naming offsets) and
/// OpenStep (Foundation, after a check of its nesting depth). Holds to `ReaderLimits` without recursion.
package enum PropertyListReader {
    /// The format a property list was written in.
    package enum Format: String, Sendable {
        case xml
        case binary
        case openStep
    }

    /// Parses a property list whose top level must be a dictionary (as Info.plist is).
    ///
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - file: how to name the file in errors.
    ///   - limits: how much the reader accepts (nesting depth, values, string sizes).
    /// - Returns: the top-level dictionary node and the format it was in.
    package static func readDictionary(
        _ data: Data, file: String, limits: ReaderLimits = .standard
    ) throws(PreflightError) -> (root: PropertyListNode, format: Format) {
        let format = detect(data)
        let root: PropertyListNode
        switch format {
        case .xml:
            let element = try XMLTextReader.parse(data, file: file, limits: limits)
            root = try xmlRoot(element, file: file)
        case .binary:
            root = try BinaryPropertyListReader.read(data, file: file, limits: limits)
        case .openStep:
            try OpenStepDepth.check(data, file: file, limits: limits)
            root = try foundation(data, file: file)
        }
        guard root.value.dictionary != nil else {
            throw .propertyList(file: file, message: "the top level is a \(root.value.typeName), not a dict")
        }
        return (root, format)
    }

    static func detect(_ data: Data) -> Format {
        if data.starts(with: Array("bplist".utf8)) { return .binary }
        let prefix = data.prefix(64)
        let trimmed = prefix.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
        if trimmed.first == 0x3C || prefix.starts(with: [0xFF, 0xFE]) || prefix.starts(with: [0xFE, 0xFF]) { return .xml }
        return .openStep
    }

    // MARK: XML

    private static func xmlRoot(_ element: XMLTextElement, file: String) throws(PreflightError) -> PropertyListNode {
        guard element.localName == "plist" else {
            throw .propertyList(file: file, message: "the root element is <\(element.localName)>, not <plist>")
        }
        guard element.children.count == 1, let value = element.children.first else {
            throw .propertyList(file: file, message: "<plist> at line \(element.line ?? 0) must hold exactly one value, it holds \(element.children.count)")
        }
        return try node(value, file: file)
    }

    /// Converts an XML plist element tree, containers with an explicit stack (no recursion).
    private static func node(_ root: XMLTextElement, file: String) throws(PreflightError) -> PropertyListNode {
        if let value = try scalar(root, file: file) { return value }
        var stack = [XMLContainer(root, key: nil)]
        while var container = stack.popLast() {
            if let (key, child) = try container.nextChild(file: file) {
                if let value = try scalar(child, file: file) {
                    container.add(value, key: key)
                    stack.append(container)
                } else {
                    stack.append(container)
                    stack.append(XMLContainer(child, key: key))
                }
            } else {
                let finished = container.node
                guard var parent = stack.popLast() else { return finished }
                parent.add(finished, key: container.key)
                stack.append(parent)
            }
        }
        throw .propertyList(file: file, message: "no value")  // not reached: the loop returns the root
    }

    /// An `<array>` or `<dict>` being converted: the next child to read, and the values read so far.
    private struct XMLContainer {
        let element: XMLTextElement
        /// The `<key>` this container is the value of, in its parent `<dict>`.
        let key: XMLTextElement?
        var next = 0
        var items: [PropertyListNode] = []
        var entries: [String: PropertyListNode] = [:]

        init(_ element: XMLTextElement, key: XMLTextElement?) {
            self.element = element
            self.key = key
        }

        /// The next value (with its `<key>` in a dict), nil when all are read.
        mutating func nextChild(file: String) throws(PreflightError) -> (key: XMLTextElement?, value: XMLTextElement)? {
            let children = element.children
            guard next < children.count else { return nil }
            guard element.localName == "dict" else {
                next += 1
                return (nil, children[next - 1])
            }
            let keyElement = children[next]
            guard keyElement.localName == "key" else {
                throw .xmlSyntax(file: file, line: keyElement.line ?? 0, column: keyElement.column ?? 0,
                                 message: "expected <key> in <dict>, found <\(keyElement.localName)>")
            }
            guard next + 1 < children.count else {
                throw .xmlSyntax(file: file, line: keyElement.line ?? 0, column: keyElement.column ?? 0,
                                 message: "<key>\(keyElement.text)</key> has no value")
            }
            let valueElement = children[next + 1]
            if valueElement.localName == "key" {
                throw .xmlSyntax(file: file, line: valueElement.line ?? 0, column: valueElement.column ?? 0,
                                 message: "<key>\(keyElement.text)</key> is followed by another <key>, not a value")
            }
            next += 2
            return (keyElement, valueElement)
        }

        mutating func add(_ value: PropertyListNode, key: XMLTextElement?) {
            if let key {
                // Point at the key: that is the line a developer edits.
                entries[key.text] = PropertyListNode(value.value, line: key.line, column: key.column)
            } else {
                items.append(value)
            }
        }

        var node: PropertyListNode {
            let value: PropertyListValue = element.localName == "dict" ? .dictionary(entries) : .array(items)
            return PropertyListNode(value, line: element.line, column: element.column)
        }
    }

    /// The value of a scalar element; nil for `<array>` and `<dict>`.
    private static func scalar(_ element: XMLTextElement, file: String) throws(PreflightError) -> PropertyListNode? {
        let line = element.line, column = element.column
        func bad(_ message: String) -> PreflightError {
            .xmlSyntax(file: file, line: line ?? 0, column: column ?? 0, message: message)
        }
        let text = element.text
        switch element.localName {
        case "string":
            return PropertyListNode(.string(text), line: line, column: column)
        case "integer":
            let trimmed = text.trimmingCharactersInWhitespace()
            let value: Int?
            if trimmed.lowercased().hasPrefix("0x") {
                value = Int(trimmed.dropFirst(2), radix: 16)
            } else {
                value = Int(trimmed)
            }
            guard let value else { throw bad("<integer> holds '\(trimmed)', not an integer") }
            return PropertyListNode(.integer(value), line: line, column: column)
        case "real":
            let trimmed = text.trimmingCharactersInWhitespace()
            guard let value = Double(trimmed) else { throw bad("<real> holds '\(trimmed)', not a number") }
            return PropertyListNode(.real(value), line: line, column: column)
        case "true", "false":
            guard element.children.isEmpty, text.trimmingCharactersInWhitespace().isEmpty else {
                throw bad("<\(element.localName)/> must be empty")
            }
            return PropertyListNode(.bool(element.localName == "true"), line: line, column: column)
        case "date":
            let trimmed = text.trimmingCharactersInWhitespace()
            guard let date = ISO8601DateFormatter().date(from: trimmed) else { throw bad("<date> holds '\(trimmed)', not an ISO 8601 date") }
            return PropertyListNode(.date(date), line: line, column: column)
        case "data":
            let base64 = text.filter { !$0.isWhitespace }
            guard let data = Data(base64Encoded: base64) else { throw bad("<data> is not valid base64") }
            return PropertyListNode(.data(data), line: line, column: column)
        case "array", "dict":
            return nil
        default:
            throw bad("<\(element.localName)> is not a property list element")
        }
    }

    // MARK: Foundation (OpenStep)

    private static func foundation(_ data: Data, file: String) throws(PreflightError) -> PropertyListNode {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw .propertyList(file: file, message: "not an XML, binary or OpenStep property list: \(reason(error))")
        }
        guard let node = convert(object, depth: 0) else {
            throw .propertyList(file: file, message: "holds a value that is not a property list type")
        }
        return node
    }

    private static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let debug = nsError.userInfo["NSDebugDescription"] as? String, !debug.isEmpty { return debug }
        return nsError.localizedDescription
    }

    private static func convert(_ object: Any, depth: Int) -> PropertyListNode? {
        guard depth < 512 else { return nil }
        switch object {
        case let value as String:
            return PropertyListNode(.string(value))
        case let value as Data:
            return PropertyListNode(.data(value))
        case let value as Date:
            return PropertyListNode(.date(value))
        case let value as Bool where type(of: object) == Bool.self:
            // swift-corelibs-foundation returns plist booleans as Swift Bools, integers as NSNumbers.
            return PropertyListNode(.bool(value))
        case let value as NSNumber:
            // An NSNumber bridges to Bool and Int alike, so ask it what it holds.
            switch String(cString: value.objCType) {
            case "c", "B": return PropertyListNode(.bool(value.boolValue))  // CFBoolean on Apple platforms
            case "f", "d": return PropertyListNode(.real(value.doubleValue))
            default: return PropertyListNode(.integer(value.intValue))
            }
        case let value as [Any]:
            var items: [PropertyListNode] = []
            for item in value {
                guard let node = convert(item, depth: depth + 1) else { return nil }
                items.append(node)
            }
            return PropertyListNode(.array(items))
        case let value as [String: Any]:
            var entries: [String: PropertyListNode] = [:]
            for (key, item) in value {
                guard let node = convert(item, depth: depth + 1) else { return nil }
                entries[key] = node
            }
            return PropertyListNode(.dictionary(entries))
        default:
            return nil
        }
    }
}
