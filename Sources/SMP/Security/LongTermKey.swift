import HCIPackets
// A Long Term Key and what identifies it.

/// An LTK with the EDIV and Rand that identify it (Core v5.4 Vol 3 Part H §2.4.2): what LE Enable
/// Encryption and LE Long Term Key Request Reply carry. The key is in HCI order (least significant octet
/// first); Secure Connections keys have EDIV and Rand zero.
public struct LongTermKey: Sendable, Hashable, Codable {
    public var key: [UInt8]
    public var ediv: UInt16
    public var random: UInt64

    public init(key: [UInt8], ediv: UInt16 = 0, random: UInt64 = 0) {
        self.key = key
        self.ediv = ediv
        self.random = random
    }

    enum CodingKeys: String, CodingKey { case key, ediv, rand }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        key = try container.decode(HexOctets.self, forKey: .key).octets(count: 16, field: .key, in: container)
        ediv = try container.decode(UInt16.self, forKey: .ediv)
        random = try UInt64(hex: container.decode(String.self, forKey: .rand), field: .rand, in: container)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(HexOctets(key), forKey: .key)
        try container.encode(ediv, forKey: .ediv)
        try container.encode(String(random, radix: 16), forKey: .rand)
    }
}

/// Octets written as hexadecimal in a JSON file, most significant first as people read keys.
struct HexOctets: Codable {
    /// HCI order (least significant first).
    let value: [UInt8]
    init(_ value: [UInt8]) { self.value = value }

    init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let bytes = parseHex(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\"\(text)\" is not hexadecimal octets"))
        }
        value = bytes.reversed()
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value.reversed().map { hex2($0) }.joined())
    }

    func octets<K: CodingKey>(count: Int, field: K, in container: KeyedDecodingContainer<K>) throws -> [UInt8] {
        guard value.count == count else {
            throw DecodingError.dataCorruptedError(forKey: field, in: container, debugDescription: "\(value.count) octets, not \(count)")
        }
        return value
    }
}

extension UInt64 {
    init<K: CodingKey>(hex: String, field: K, in container: KeyedDecodingContainer<K>) throws {
        guard let value = UInt64(hex, radix: 16) else {
            throw DecodingError.dataCorruptedError(forKey: field, in: container, debugDescription: "\"\(hex)\" is not a hexadecimal number")
        }
        self = value
    }
}

/// Octets from hexadecimal text (an even number of digits, optional spaces or colons), or nil.
public func parseHex(_ text: String) -> [UInt8]? {
    let digits = text.filter { $0 != " " && $0 != ":" }
    guard digits.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2)
        guard let byte = UInt8(digits[index..<next], radix: 16) else { return nil }
        bytes.append(byte)
        index = next
    }
    return bytes
}
