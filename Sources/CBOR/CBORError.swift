/// Why bytes are not a CBOR data item we take: each names the offset where the trouble was seen.
package enum CBORError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input ended inside a data item (RFC 8949 §3: a head or its content cut short).
    case truncated(offset: Int)
    /// libcbor found no well-formed head there (a reserved additional information value, a stray break, …).
    case malformed(offset: Int)
    /// Well-formed CBOR of a kind `CBORValue` does not hold (a float, a tag, an undefined or other simple value).
    case unsupported(String, offset: Int)
    /// A text string that is not valid UTF-8 (§3.1, major type 3).
    case invalidText(offset: Int)
    /// Nesting deeper than the limit allows.
    case tooDeep(limit: Int, offset: Int)
    /// A string, array or map longer than the limit allows (its declared length, or its chunks' sum).
    case tooLong(length: UInt64, limit: Int, offset: Int)
    /// More data items in all than the limit allows.
    case tooManyItems(limit: Int, offset: Int)
    /// Bytes left over after the one data item.
    case trailingBytes(count: Int, offset: Int)

    package var description: String {
        switch self {
        case .truncated(let offset): "CBOR: input ends inside a data item at offset \(offset)"
        case .malformed(let offset): "CBOR: malformed data item at offset \(offset)"
        case .unsupported(let kind, let offset): "CBOR: \(kind) at offset \(offset) is not taken"
        case .invalidText(let offset): "CBOR: text string at offset \(offset) is not valid UTF-8"
        case .tooDeep(let limit, let offset): "CBOR: nesting deeper than \(limit) at offset \(offset)"
        case .tooLong(let length, let limit, let offset): "CBOR: length \(length) at offset \(offset) is over the limit of \(limit)"
        case .tooManyItems(let limit, let offset): "CBOR: more than \(limit) data items (at offset \(offset))"
        case .trailingBytes(let count, let offset): "CBOR: \(count) bytes after the data item, from offset \(offset)"
        }
    }
}

/// The most a decoded value may hold, so that hostile input is an error before it costs memory or stack.
package struct CBORLimits: Sendable, Hashable {
    /// Arrays and maps inside one another (the top-level item is depth 1).
    package var depth: Int
    /// Octets of a string, or entries of an array or map.
    package var length: Int
    /// Data items in all (a map's key and value each count).
    package var items: Int

    package init(depth: Int = 16, length: Int = 65_536, items: Int = 4_096) {
        self.depth = depth
        self.length = length
        self.items = items
    }
}
