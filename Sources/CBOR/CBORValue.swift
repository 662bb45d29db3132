/// A CBOR data item (RFC 8949 §3) of the kinds MCUmgr SMP bodies carry: integers, byte and text strings, arrays,
/// maps (in the order they were written: a map's encoding keeps it), booleans and null. Floating-point numbers,
/// tags and other simple values are not held: decoding one is `CBORError.unsupported`.
package enum CBORValue: Sendable, Hashable {
    /// Major type 0: an unsigned integer.
    case unsigned(UInt64)
    /// Major type 1: the negative integer −1 − `argument` (so that the whole range −2⁶⁴ … −1 is held).
    case negative(argument: UInt64)
    /// Major type 2.
    case bytes([UInt8])
    /// Major type 3 (valid UTF-8).
    case text(String)
    /// Major type 4.
    case array([CBORValue])
    /// Major type 5, its pairs in order.
    case map([CBORMapEntry])
    /// Major type 7, simple values 20 and 21.
    case bool(Bool)
    /// Major type 7, simple value 22.
    case null

    /// An integer as CBOR holds it: unsigned when ≥ 0, negative otherwise.
    package static func int(_ value: Int) -> CBORValue {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(argument: UInt64(-(value + 1)))
    }

    /// The integer, when it is one that `Int` holds.
    package var int: Int? {
        switch self {
        case .unsigned(let value): value <= UInt64(Int.max) ? Int(value) : nil
        case .negative(let argument): argument <= UInt64(Int.max) ? -1 - Int(argument) : nil
        default: nil
        }
    }

    package var unsigned: UInt64? { if case .unsigned(let value) = self { value } else { nil } }
    package var bytes: [UInt8]? { if case .bytes(let value) = self { value } else { nil } }
    package var text: String? { if case .text(let value) = self { value } else { nil } }
    package var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    package var array: [CBORValue]? { if case .array(let value) = self { value } else { nil } }
    package var entries: [CBORMapEntry]? { if case .map(let value) = self { value } else { nil } }

    /// The value of a map's first pair whose key is the text `key`; nil when this is no map or has no such key.
    package subscript(key: String) -> CBORValue? {
        entries?.first { $0.key == .text(key) }?.value
    }

    /// A map with text keys, in the order given.
    package static func map(_ pairs: KeyValuePairs<String, CBORValue>) -> CBORValue {
        .map(pairs.map { CBORMapEntry(.text($0.key), $0.value) })
    }
}

/// One key/value pair of a CBOR map.
package struct CBORMapEntry: Sendable, Hashable {
    package var key: CBORValue
    package var value: CBORValue

    package init(_ key: CBORValue, _ value: CBORValue) {
        self.key = key
        self.value = value
    }
}

extension CBORValue: CustomStringConvertible {
    /// RFC 8949 §8's diagnostic notation: `{"rc": 0, "data": h'0102'}`.
    package var description: String {
        switch self {
        case .unsigned(let value): String(value)
        case .negative(let argument): argument == .max ? "-18446744073709551616" : "-\(argument + 1)"
        case .bytes(let value): "h'" + value.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + "'"
        case .text(let value): "\"" + String(value.flatMap { $0 == "\"" || $0 == "\\" ? ["\\", $0] : [$0] as [Character] }) + "\""
        case .array(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .map(let entries): "{" + entries.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        case .bool(let value): value ? "true" : "false"
        case .null: "null"
        }
    }
}

extension CBORValue {
    /// A map of the given pairs (nil values left out) with its keys in RFC 8949 §4.2.1's core deterministic order:
    /// bytewise by their encodings. It is the order Python's cbor2 writes with `canonical=True` for the short
    /// text keys MCUmgr uses, so a request's bytes are those of a peer built on it.
    package static func deterministicMap(_ pairs: [(String, CBORValue?)]) -> CBORValue {
        let entries = pairs.compactMap { key, value in value.map { CBORMapEntry(.text(key), $0) } }
        return .map(entries.sorted { $0.key.encoded.lexicographicallyPrecedes($1.key.encoded) })
    }
}
