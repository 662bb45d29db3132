import HCIPackets

/// Reads little-endian command parameters whose length was checked first; a read past the end gives
/// zeros rather than trapping, so a wrong length check can never crash the air.
struct ParameterReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func u8() -> UInt8 {
        defer { offset += 1 }
        return offset < bytes.count ? bytes[offset] : 0
    }

    mutating func u16() -> UInt16 { UInt16(u8()) | UInt16(u8()) << 8 }

    mutating func u64() -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(u8()) << UInt64(8 * index) }
        return value
    }

    /// `count` octets as they stand (keys and blocks, least significant octet first).
    mutating func bytes(_ count: Int) -> [UInt8] { (0..<max(0, count)).map { _ in u8() } }

    mutating func address() -> BDAddress {
        BDAddress(littleEndian: (0..<6).map { _ in u8() }) ?? .zero
    }

    mutating func connectionParameters() -> ConnectionParameters {
        ConnectionParameters(intervalMin: u16(), intervalMax: u16(), latency: u16(), supervisionTimeout: u16(),
                             minCELength: u16(), maxCELength: u16())
    }
}
