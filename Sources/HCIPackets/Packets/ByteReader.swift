/// Reads little-endian fields from untrusted bytes; every read past the end throws instead of trapping.
struct ByteReader {
    private let bytes: ArraySlice<UInt8>
    private(set) var offset: Int
    /// What is being decoded, for error messages (e.g. "LE Connection Complete").
    private let baseContext: StaticString
    /// The command a Command Complete answers, named in errors only (formatting it costs).
    private let opcode: HCIOpcode?

    var context: String { opcode.map { "\(baseContext) for \($0)" } ?? "\(baseContext)" }

    init(_ bytes: some Collection<UInt8>, context: StaticString, opcode: HCIOpcode? = nil) {
        self.bytes = ArraySlice(bytes)
        self.offset = self.bytes.startIndex
        self.baseContext = context
        self.opcode = opcode
    }

    var remaining: Int { bytes.endIndex - offset }
    var position: Int { offset - bytes.startIndex }

    mutating func u8(_ field: String) throws(HCIDecodingError) -> UInt8 {
        guard remaining >= 1 else { throw shortError(field, needed: 1) }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func i8(_ field: String) throws(HCIDecodingError) -> Int8 {
        Int8(bitPattern: try u8(field))
    }

    mutating func u16(_ field: String) throws(HCIDecodingError) -> UInt16 {
        guard remaining >= 2 else { throw shortError(field, needed: 2) }
        defer { offset += 2 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    mutating func u24(_ field: String) throws(HCIDecodingError) -> UInt32 {
        guard remaining >= 3 else { throw shortError(field, needed: 3) }
        defer { offset += 3 }
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
    }

    mutating func u32(_ field: String) throws(HCIDecodingError) -> UInt32 {
        guard remaining >= 4 else { throw shortError(field, needed: 4) }
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[offset + index]) << (8 * index) }
        offset += 4
        return value
    }

    mutating func u64(_ field: String) throws(HCIDecodingError) -> UInt64 {
        guard remaining >= 8 else { throw shortError(field, needed: 8) }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[offset + index]) << (8 * index) }
        offset += 8
        return value
    }

    mutating func bytes(_ count: Int, _ field: String) throws(HCIDecodingError) -> [UInt8] {
        guard count >= 0, remaining >= count else { throw shortError(field, needed: count) }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    mutating func address(_ field: String) throws(HCIDecodingError) -> BDAddress {
        let raw = try bytes(6, field)
        guard let address = BDAddress(littleEndian: raw) else { throw shortError(field, needed: 6) }
        return address
    }

    mutating func rest() -> [UInt8] {
        defer { offset = bytes.endIndex }
        return Array(bytes[offset...])
    }

    private func shortError(_ field: String, needed: Int) -> HCIDecodingError {
        HCIDecodingError("\(context): \(field) needs \(needed) byte(s) at offset \(position), only \(remaining) left")
    }
}

/// Bytes from a controller that do not decode as what they claim to be.
public struct HCIDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Appends little-endian fields.
package struct ByteWriter {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 16) { bytes.reserveCapacity(capacity) }

    package mutating func u8(_ value: UInt8) { bytes.append(value) }
    package mutating func u16(_ value: UInt16) { bytes.append(UInt8(value & 0xFF)); bytes.append(UInt8(value >> 8)) }
    mutating func u24(_ value: UInt32) { for index in 0..<3 { bytes.append(UInt8((value >> (8 * index)) & 0xFF)) } }
    mutating func u32(_ value: UInt32) { for index in 0..<4 { bytes.append(UInt8((value >> (8 * index)) & 0xFF)) } }
    package mutating func u64(_ value: UInt64) { for index in 0..<8 { bytes.append(UInt8((value >> (8 * index)) & 0xFF)) } }
    package mutating func append(_ data: some Sequence<UInt8>) { bytes.append(contentsOf: data) }
    package mutating func address(_ address: BDAddress) { bytes.append(contentsOf: address.littleEndianBytes) }
}
