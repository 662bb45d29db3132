import Foundation

/// Reads Android binary XML (AXML, the compiled AndroidManifest.xml inside an APK) into a `XMLTextElement` tree.
///
/// The format is a sequence of chunks, each with a 8-byte header (`type: u16, headerSize: u16, size: u32`,
/// little-endian), as laid out in the platform's `ResourceTypes.h`: an `RES_XML_TYPE` document chunk holding a
/// string pool, an optional resource map, then namespace, element and CDATA nodes. Every size and index is
/// checked against its chunk; a fault throws `PreflightError.binaryXML` with the byte offset. Elements are
/// kept on an explicit stack, within `ReaderLimits` (nesting depth, elements, attributes, string sizes).
package enum AXMLReader {
    enum ChunkType {
        static let stringPool: UInt16 = 0x0001
        static let xml: UInt16 = 0x0003
        static let startNamespace: UInt16 = 0x0100
        static let endNamespace: UInt16 = 0x0101
        static let startElement: UInt16 = 0x0102
        static let endElement: UInt16 = 0x0103
        static let cdata: UInt16 = 0x0104
        static let resourceMap: UInt16 = 0x0180
    }

    enum ValueType {
        static let null: UInt8 = 0x00
        static let reference: UInt8 = 0x01
        static let string: UInt8 = 0x03
        static let float: UInt8 = 0x04
        static let intDec: UInt8 = 0x10
        static let intHex: UInt8 = 0x11
        static let intBoolean: UInt8 = 0x12
    }

    static let noIndex: UInt32 = 0xFFFF_FFFF

    /// Attribute names by `android:` resource ID, used when a shrunk APK left the name strings empty.
    static let knownAttributeIDs: [UInt32: String] = [
        0x0101_0003: "name",
        0x0101_020C: "minSdkVersion",
        0x0101_0270: "targetSdkVersion",
        0x0101_0271: "maxSdkVersion",
        0x0101_028E: "required",
        0x0101_0644: "usesPermissionFlags",
    ]

    /// True when `data` starts with an `RES_XML_TYPE` chunk header.
    package static func looksLikeBinaryXML(_ data: Data) -> Bool {
        data.starts(with: [0x03, 0x00, 0x08, 0x00])
    }

    /// Decodes a binary XML document; `file` names it in errors.
    package static func parse(_ data: Data, file: String, limits: ReaderLimits = .standard) throws(PreflightError) -> XMLTextElement {
        let reader = ByteReader(data)
        func fail(_ offset: Int, _ message: String) -> PreflightError { .binaryXML(file: file, offset: offset, message: message) }

        guard let type = reader.u16(0), let headerSize = reader.u16(2), let size = reader.u32(4) else {
            throw fail(0, "\(reader.count) bytes is too short for a binary XML header")
        }
        guard type == ChunkType.xml else { throw fail(0, "document chunk type is 0x\(hex(type)), expected 0x0003 (RES_XML_TYPE)") }
        guard headerSize >= 8 else { throw fail(2, "document header size \(headerSize) is less than 8") }
        guard Int(size) <= reader.count else {
            throw fail(4, "document chunk claims \(size) bytes but the file has \(reader.count) (truncated?)")
        }
        let end = Int(size)

        var strings: [String] = []
        var resourceIDs: [UInt32] = []
        var stack: [XMLTextElement] = []
        var root: XMLTextElement?
        var elementCount = 0
        var attributeTotal = 0
        func overLimit(_ what: String, _ limit: String, _ value: Int, at offset: Int, adding name: String) -> PreflightError {
            .limit(what, limit: limit, value: value, file: file, location: "byte \(offset)", path: stack.map(\.localName) + [name])
        }

        func string(_ index: UInt32, at offset: Int) throws(PreflightError) -> String? {
            if index == noIndex { return nil }
            guard Int(index) < strings.count else {
                throw fail(offset, "string index \(index) is past the string pool's \(strings.count) strings")
            }
            return strings[Int(index)]
        }

        var offset = Int(headerSize)
        while offset < end {
            guard let chunkType = reader.u16(offset), let chunkHeaderSize = reader.u16(offset + 2),
                  let chunkSize32 = reader.u32(offset + 4), offset + 8 <= end else {
                throw fail(offset, "truncated chunk header")
            }
            let chunkSize = Int(chunkSize32)
            guard chunkHeaderSize >= 8, Int(chunkHeaderSize) <= chunkSize else {
                throw fail(offset, "chunk header size \(chunkHeaderSize) is outside 8...\(chunkSize) (chunk size)")
            }
            guard chunkSize <= end - offset else {
                throw fail(offset, "chunk of type 0x\(hex(chunkType)) claims \(chunkSize) bytes, only \(end - offset) remain")
            }
            let chunk = ByteReader(reader.bytes(offset, count: chunkSize) ?? Data())
            switch chunkType {
            case ChunkType.stringPool:
                strings = try readStringPool(chunk, at: offset, file: file, limits: limits)
            case ChunkType.resourceMap:
                resourceIDs = (0..<((chunkSize - Int(chunkHeaderSize)) / 4)).compactMap { chunk.u32(Int(chunkHeaderSize) + $0 * 4) }
            case ChunkType.startNamespace, ChunkType.endNamespace:
                break  // Attribute namespaces are stored as URIs; prefixes are not needed.
            case ChunkType.startElement:
                guard chunkHeaderSize >= 16, let lineNumber = chunk.u32(8) else { throw fail(offset, "element node header is too short") }
                let ext = Int(chunkHeaderSize)
                guard let nsIndex = chunk.u32(ext), let nameIndex = chunk.u32(ext + 4),
                      let attributeStart = chunk.u16(ext + 8), let attributeSize = chunk.u16(ext + 10),
                      let attributeCount = chunk.u16(ext + 12) else {
                    throw fail(offset, "truncated start-element extension")
                }
                guard let name = try string(nameIndex, at: offset + ext + 4), !name.isEmpty else {
                    throw fail(offset + ext + 4, "element without a name")
                }
                let namespace = try string(nsIndex, at: offset + ext)
                elementCount += 1
                attributeTotal += Int(attributeCount)
                guard stack.count < limits.nestingDepth else {
                    throw overLimit("<\(name)> nested \(stack.count + 1) deep", "nestingDepth", limits.nestingDepth, at: offset, adding: name)
                }
                guard elementCount <= limits.values else {
                    throw overLimit("element number \(elementCount)", "values", limits.values, at: offset, adding: name)
                }
                guard Int(attributeCount) <= limits.attributesPerElement else {
                    throw overLimit("\(attributeCount) attributes on one element", "attributesPerElement", limits.attributesPerElement, at: offset + ext + 12, adding: name)
                }
                guard attributeTotal <= limits.attributesPerDocument else {
                    throw overLimit("attribute number \(attributeTotal) in the document", "attributesPerDocument", limits.attributesPerDocument, at: offset, adding: name)
                }
                guard attributeCount == 0 || attributeSize >= 20 else {
                    throw fail(offset + ext + 10, "attribute size \(attributeSize) is less than 20")
                }
                let firstAttribute = ext + Int(attributeStart)
                guard attributeCount == 0 || firstAttribute + Int(attributeCount) * Int(attributeSize) <= chunkSize else {
                    throw fail(offset + ext + 12, "\(attributeCount) attributes of \(attributeSize) bytes run past the \(chunkSize)-byte element chunk")
                }
                var attributes: [XMLTextAttribute] = []
                for index in 0..<Int(attributeCount) {
                    let at = firstAttribute + index * Int(attributeSize)
                    guard let attrNS = chunk.u32(at), let attrName = chunk.u32(at + 4), let raw = chunk.u32(at + 8),
                          let dataType = chunk.u8(at + 15), let value = chunk.u32(at + 16) else {
                        throw fail(offset + at, "truncated attribute")
                    }
                    var localName = try string(attrName, at: offset + at + 4) ?? ""
                    if localName.isEmpty, Int(attrName) < resourceIDs.count, let known = knownAttributeIDs[resourceIDs[Int(attrName)]] {
                        localName = known
                    }
                    let text: String
                    if let rawText = try string(raw, at: offset + at + 8) {
                        text = rawText
                    } else {
                        text = try render(type: dataType, data: value) { index throws(PreflightError) in
                            try string(index, at: offset + at + 16) ?? ""
                        }
                    }
                    attributes.append(XMLTextAttribute(namespaceURI: try string(attrNS, at: offset + at), localName: localName, value: text))
                }
                stack.append(XMLTextElement(namespaceURI: namespace, localName: name, attributes: attributes,
                                           line: lineNumber == 0 ? nil : Int(lineNumber), column: nil))
            case ChunkType.endElement:
                let ext = Int(chunkHeaderSize)
                guard let nameIndex = chunk.u32(ext + 4) else { throw fail(offset, "truncated end-element node") }
                let name = try string(nameIndex, at: offset + ext + 4) ?? ""
                guard let element = stack.popLast() else { throw fail(offset, "end of element <\(name)> without a start") }
                guard element.localName == name else {
                    throw fail(offset, "end of element <\(name)> does not match the open <\(element.localName)>")
                }
                if stack.isEmpty {
                    guard root == nil else { throw fail(offset, "a second root element <\(name)>") }
                    root = element
                } else {
                    stack[stack.count - 1].children.append(element)
                }
            case ChunkType.cdata:
                let ext = Int(chunkHeaderSize)
                guard let dataIndex = chunk.u32(ext) else { throw fail(offset, "truncated CDATA node") }
                if !stack.isEmpty, let text = try string(dataIndex, at: offset + ext) {
                    let total = stack[stack.count - 1].text.utf8.count + text.utf8.count
                    guard total <= limits.stringBytes else {
                        throw .limit("text of \(total) bytes", limit: "stringBytes", value: limits.stringBytes,
                                     file: file, location: "byte \(offset)", path: stack.map(\.localName))
                    }
                    stack[stack.count - 1].text += text
                }
            default:
                break  // Unknown chunks are skipped by their declared size.
            }
            offset += chunkSize  // At least 8: the header size was checked against it.
        }
        if let open = stack.last { throw fail(end, "the document ends inside <\(open.localName)>") }
        guard let root else { throw fail(end, "the document has no root element") }
        return root
    }

    private static func render(type: UInt8, data: UInt32, string: (UInt32) throws(PreflightError) -> String) throws(PreflightError) -> String {
        switch type {
        case ValueType.null: return ""
        case ValueType.string: return try string(data)
        case ValueType.intDec: return String(Int32(bitPattern: data))
        case ValueType.intHex: return "0x" + String(data, radix: 16)
        case ValueType.intBoolean: return data == 0 ? "false" : "true"
        case ValueType.float: return String(Float(bitPattern: data))
        case ValueType.reference: return "@0x" + String(data, radix: 16)
        default: return "0x" + String(data, radix: 16)
        }
    }

    /// Decodes a `ResStringPool` chunk (UTF-8 or UTF-16 strings).
    static func readStringPool(_ chunk: ByteReader, at base: Int, file: String, limits: ReaderLimits) throws(PreflightError) -> [String] {
        func fail(_ offset: Int, _ message: String) -> PreflightError { .binaryXML(file: file, offset: base + offset, message: message) }
        guard let headerSize = chunk.u16(2), headerSize >= 28, let count = chunk.u32(8), let flags = chunk.u32(16),
              let stringsStart = chunk.u32(20) else {
            throw fail(0, "string pool header is truncated")
        }
        let size = chunk.count
        guard Int(count) <= (size - Int(headerSize)) / 4 else {
            throw fail(8, "string pool claims \(count) strings, more than its \(size) bytes can index")
        }
        guard Int(stringsStart) <= size else { throw fail(20, "strings start at \(stringsStart), past the \(size)-byte pool") }
        guard Int(count) <= limits.values else {
            throw .limit("a string pool of \(count) strings", limit: "values", value: limits.values, file: file, location: "byte \(base + 8)")
        }
        func checkLength(_ bytes: Int, at offset: Int) throws(PreflightError) {
            guard bytes <= limits.stringBytes else {
                throw .limit("a string of \(bytes) bytes", limit: "stringBytes", value: limits.stringBytes, file: file, location: "byte \(base + offset)")
            }
        }
        let utf8 = flags & 0x100 != 0
        var strings: [String] = []
        strings.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            guard let relative = chunk.u32(Int(headerSize) + index * 4) else { throw fail(Int(headerSize) + index * 4, "truncated string offset") }
            let start = Int(stringsStart) + Int(relative)
            guard start < size else { throw fail(Int(headerSize) + index * 4, "string \(index) starts past the end of the pool") }
            if utf8 {
                // Two variable-length counts (UTF-16 units, then bytes), each 1 or 2 bytes.
                func length(_ at: Int) throws(PreflightError) -> (Int, Int) {
                    guard let first = chunk.u8(at) else { throw fail(at, "truncated string \(index) length") }
                    if first & 0x80 == 0 { return (Int(first), 1) }
                    guard let second = chunk.u8(at + 1) else { throw fail(at, "truncated string \(index) length") }
                    return (Int(first & 0x7F) << 8 | Int(second), 2)
                }
                let (_, skip) = try length(start)
                let (byteCount, skip2) = try length(start + skip)
                try checkLength(byteCount, at: start)
                guard let bytes = chunk.bytes(start + skip + skip2, count: byteCount) else {
                    throw fail(start, "string \(index) (\(byteCount) bytes) runs past the end of the pool")
                }
                strings.append(String(decoding: bytes, as: UTF8.self))
            } else {
                guard let first = chunk.u16(start) else { throw fail(start, "truncated string \(index) length") }
                var units = Int(first)
                var at = start + 2
                if first & 0x8000 != 0 {
                    guard let second = chunk.u16(start + 2) else { throw fail(start, "truncated string \(index) length") }
                    units = Int(first & 0x7FFF) << 16 | Int(second)
                    at += 2
                }
                try checkLength(units * 2, at: start)
                guard units <= (size - at) / 2, let bytes = chunk.bytes(at, count: units * 2) else {
                    throw fail(start, "string \(index) (\(units) UTF-16 units) runs past the end of the pool")
                }
                let codeUnits = stride(from: 0, to: bytes.count, by: 2).map { offset -> UInt16 in
                    UInt16(bytes[bytes.startIndex + offset]) | UInt16(bytes[bytes.startIndex + offset + 1]) << 8
                }
                strings.append(String(decoding: codeUnits, as: UTF16.self))
            }
        }
        return strings
    }

    private static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
