import HCIPackets

/// Builds little-endian Command Complete return parameters.
struct ReturnParameterWriter {
    private(set) var bytes: [UInt8] = []
    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u16(_ value: UInt16) { bytes.append(UInt8(value & 0xFF)); bytes.append(UInt8(value >> 8)) }
    mutating func u64(_ value: UInt64) { for index in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(8 * index))) } }
    mutating func address(_ address: BDAddress) { bytes.append(contentsOf: address.littleEndianBytes) }
}
