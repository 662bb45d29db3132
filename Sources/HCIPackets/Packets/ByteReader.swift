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

    mutating func u16(_ field: String) throws(HCIDecodingError) -> UInt16 { try littleEndian(2, field) }
    mutating func u24(_ field: String) throws(HCIDecodingError) -> UInt32 { try littleEndian(3, field) }
    mutating func u32(_ field: String) throws(HCIDecodingError) -> UInt32 { try littleEndian(4, field) }
    mutating func u64(_ field: String) throws(HCIDecodingError) -> UInt64 { try littleEndian(8, field) }

    /// An unsigned field of `width` octets, least significant first.
    private mutating func littleEndian<Value: FixedWidthInteger & UnsignedInteger>(
        _ width: Int, _ field: String
    ) throws(HCIDecodingError) -> Value {
        guard remaining >= width else { throw shortError(field, needed: width) }
        var value: Value = 0
        for index in 0..<width { value |= Value(bytes[offset + index]) << (8 * index) }
        offset += width
        return value
    }

    /// A Connection_Handle field: its 12 bits (Core v5.4 Vol 4 Part E §5.4.2; the top 4 are reserved).
    mutating func connectionHandle(_ field: String = "Connection_Handle") throws(HCIDecodingError) -> UInt16 {
        try u16(field) & 0x0FFF
    }

    /// A Status or Reason field: an error code of Vol 1 Part F.
    mutating func status(_ field: String = "Status") throws(HCIDecodingError) -> HCIStatus {
        HCIStatus(rawValue: try u8(field))
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
    package mutating func u16(_ value: UInt16) { littleEndian(value, width: 2) }
    mutating func u24(_ value: UInt32) { littleEndian(value, width: 3) }
    mutating func u32(_ value: UInt32) { littleEndian(value, width: 4) }
    package mutating func u64(_ value: UInt64) { littleEndian(value, width: 8) }
    package mutating func append(_ data: some Sequence<UInt8>) { bytes.append(contentsOf: data) }
    package mutating func address(_ address: BDAddress) { bytes.append(contentsOf: address.littleEndianBytes) }
    /// A Connection_Handle field: the handle's 12 bits, the reserved top 4 zero.
    mutating func connectionHandle(_ handle: UInt16) { u16(handle & 0x0FFF) }

    /// Appends the low `width` octets of `value`, least significant first.
    private mutating func littleEndian(_ value: some FixedWidthInteger, width: Int) {
        for index in 0..<width { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }
}
