import Foundation

/// A test-only encoder of Android binary XML (AXML), the format aapt2 writes into APKs.
///
/// Lays out what `ResourceTypes.h` describes: an RES_XML_TYPE chunk holding a string pool (UTF-16 or UTF-8),
/// a resource map for the attribute names that have `android:` resource IDs, namespace nodes and element nodes
/// whose attributes carry typed values.
struct TestAXMLWriter {
    enum Value {
        case string(String)
        case intDec(Int32)
        case intHex(UInt32)
        case bool(Bool)
        case reference(UInt32)
    }

    struct Attribute {
        var namespace: String?
        var name: String
        var value: Value
        var resourceID: UInt32?
    }

    struct Element {
        var namespace: String?
        var name: String
        var attributes: [Attribute] = []
        var children: [Element] = []
        var line: UInt32 = 1
        var text: String?
    }

    static let android = "http://schemas.android.com/apk/res/android"
    static let resourceIDs: [String: UInt32] = [
        "name": 0x0101_0003, "minSdkVersion": 0x0101_020C, "targetSdkVersion": 0x0101_0270,
        "maxSdkVersion": 0x0101_0271, "required": 0x0101_028E, "usesPermissionFlags": 0x0101_0644,
    ]

    /// An `android:` attribute with its resource ID.
    static func androidAttribute(_ name: String, _ value: Value) -> Attribute {
        Attribute(namespace: android, name: name, value: value, resourceID: resourceIDs[name] ?? 0x0101_0999)
    }

    var utf8 = false
    /// Writes empty strings for attribute names that have resource IDs (as shrinkers do).
    var blankAttributeNames = false
    var namespaces: [(prefix: String, uri: String)] = [("android", android)]

    func encode(_ root: Element) -> Data {
        // Strings: attribute names with resource IDs first (the resource map indexes them), then the rest.
        var withIDs: [(String, UInt32)] = []
        var others: [String] = []
        func visit(_ element: Element) {
            for attribute in element.attributes {
                if let id = attribute.resourceID {
                    if !withIDs.contains(where: { $0.0 == attribute.name }) { withIDs.append((attribute.name, id)) }
                } else {
                    others.append(attribute.name)
                }
                if let ns = attribute.namespace { others.append(ns) }
                if case .string(let text) = attribute.value { others.append(text) }
            }
            others.append(element.name)
            if let ns = element.namespace { others.append(ns) }
            if let text = element.text { others.append(text) }
            element.children.forEach(visit)
        }
        visit(root)
        for namespace in namespaces { others += [namespace.prefix, namespace.uri] }
        var strings = withIDs.map { blankAttributeNames ? "" : $0.0 }
        var index: [String: UInt32] = [:]
        for (offset, pair) in withIDs.enumerated() { index["@attr:" + pair.0] = UInt32(offset) }
        for string in others where index[string] == nil {
            index[string] = UInt32(strings.count)
            strings.append(string)
        }
        func ref(_ string: String?) -> UInt32 { string.flatMap { index[$0] } ?? 0xFFFF_FFFF }
        func nameRef(_ attribute: Attribute) -> UInt32 {
            attribute.resourceID != nil ? (index["@attr:" + attribute.name] ?? 0) : ref(attribute.name)
        }

        var body = Data()
        body += stringPool(strings)
        var map = Data()
        map.le16(0x0180); map.le16(8); map.le32(UInt32(8 + 4 * withIDs.count))
        for (_, id) in withIDs { map.le32(id) }
        body += map
        for namespace in namespaces { body += node(0x0100, line: 1, ext: [ref(namespace.prefix), ref(namespace.uri)]) }
        func emit(_ element: Element) {
            var ext = Data()
            ext.le32(ref(element.namespace)); ext.le32(ref(element.name))
            ext.le16(20); ext.le16(20); ext.le16(UInt16(element.attributes.count)); ext.le16(0); ext.le16(0); ext.le16(0)
            for attribute in element.attributes {
                ext.le32(ref(attribute.namespace)); ext.le32(nameRef(attribute))
                let (raw, type, data): (UInt32, UInt8, UInt32)
                switch attribute.value {
                case .string(let text): (raw, type, data) = (ref(text), 0x03, ref(text))
                case .intDec(let value): (raw, type, data) = (0xFFFF_FFFF, 0x10, UInt32(bitPattern: value))
                case .intHex(let value): (raw, type, data) = (0xFFFF_FFFF, 0x11, value)
                case .bool(let value): (raw, type, data) = (0xFFFF_FFFF, 0x12, value ? 0xFFFF_FFFF : 0)
                case .reference(let value): (raw, type, data) = (0xFFFF_FFFF, 0x01, value)
                }
                ext.le32(raw); ext.le16(8); ext.append(0); ext.append(type); ext.le32(data)
            }
            body += node(0x0102, line: element.line, extData: ext)
            if let text = element.text {
                var cdata = Data()
                cdata.le32(ref(text)); cdata.le16(8); cdata.append(0); cdata.append(0x03); cdata.le32(ref(text))
                body += node(0x0104, line: element.line, extData: cdata)
            }
            element.children.forEach(emit)
            body += node(0x0103, line: element.line, ext: [ref(element.namespace), ref(element.name)])
        }
        emit(root)
        for namespace in namespaces.reversed() { body += node(0x0101, line: 1, ext: [ref(namespace.prefix), ref(namespace.uri)]) }

        var document = Data()
        document.le16(0x0003); document.le16(8); document.le32(UInt32(8 + body.count))
        return document + body
    }

    /// A document of `depth` elements named `name`, each the only child of the one before — written
    /// without recursion, for nesting deeper than a thread's stack would allow `encode`.
    func encodeNested(_ name: String, depth: Int) -> Data {
        var startExt = Data()
        startExt.le32(0xFFFF_FFFF); startExt.le32(0)
        startExt.le16(20); startExt.le16(20); startExt.le16(0); startExt.le16(0); startExt.le16(0); startExt.le16(0)
        let start = node(0x0102, line: 1, extData: startExt)
        let end = node(0x0103, line: 1, ext: [0xFFFF_FFFF, 0])
        var body = stringPool([name])
        body.reserveCapacity(body.count + depth * (start.count + end.count))
        for _ in 0..<depth { body += start }
        for _ in 0..<depth { body += end }
        var document = Data()
        document.le16(0x0003); document.le16(8); document.le32(UInt32(8 + body.count))
        return document + body
    }

    private func node(_ type: UInt16, line: UInt32, ext: [UInt32]) -> Data {
        var data = Data()
        for value in ext { data.le32(value) }
        return node(type, line: line, extData: data)
    }

    private func node(_ type: UInt16, line: UInt32, extData: Data) -> Data {
        var chunk = Data()
        chunk.le16(type); chunk.le16(16); chunk.le32(UInt32(16 + extData.count))
        chunk.le32(line); chunk.le32(0xFFFF_FFFF)
        return chunk + extData
    }

    private func stringPool(_ strings: [String]) -> Data {
        var offsets: [UInt32] = []
        var data = Data()
        for string in strings {
            offsets.append(UInt32(data.count))
            if utf8 {
                let bytes = Array(string.utf8)
                data += lengthUTF8(string.utf16.count) + lengthUTF8(bytes.count) + Data(bytes) + Data([0])
            } else {
                let units = Array(string.utf16)
                if units.count > 0x7FFF {
                    data.le16(UInt16(0x8000 | (units.count >> 16))); data.le16(UInt16(units.count & 0xFFFF))
                } else {
                    data.le16(UInt16(units.count))
                }
                for unit in units { data.le16(unit) }
                data.le16(0)
            }
        }
        while data.count % 4 != 0 { data.append(0) }
        let headerSize = 28
        let stringsStart = headerSize + 4 * strings.count
        var chunk = Data()
        chunk.le16(0x0001); chunk.le16(UInt16(headerSize)); chunk.le32(UInt32(stringsStart + data.count))
        chunk.le32(UInt32(strings.count)); chunk.le32(0); chunk.le32(utf8 ? 0x100 : 0)
        chunk.le32(UInt32(stringsStart)); chunk.le32(0)
        for offset in offsets { chunk.le32(offset) }
        return chunk + data
    }

    private func lengthUTF8(_ count: Int) -> Data {
        count > 0x7F ? Data([UInt8(0x80 | (count >> 8)), UInt8(count & 0xFF)]) : Data([UInt8(count)])
    }
}
