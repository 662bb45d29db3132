import Foundation

/// Bounds-checked little-endian reads from bytes; every read outside the bytes returns nil, never traps.
struct ByteReader: Sendable {
    /// The bytes, addressed from 0 whatever the underlying `Data`'s start index.
    let data: Data

    init(_ data: Data) {
        self.data = data
    }

    /// The number of bytes.
    var count: Int { data.count }

    func u8(_ offset: Int) -> UInt8? {
        guard offset >= 0, offset < data.count else { return nil }
        return data[data.startIndex + offset]
    }

    func u16(_ offset: Int) -> UInt16? {
        guard offset >= 0, offset <= data.count - 2 else { return nil }
        let base = data.startIndex + offset
        return UInt16(data[base]) | UInt16(data[base + 1]) << 8
    }

    func u32(_ offset: Int) -> UInt32? {
        guard offset >= 0, offset <= data.count - 4 else { return nil }
        let base = data.startIndex + offset
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(data[base + index]) << (8 * UInt32(index)) }
        return value
    }

    func u64(_ offset: Int) -> UInt64? {
        guard let low = u32(offset), let high = u32(offset + 4) else { return nil }
        return UInt64(low) | UInt64(high) << 32
    }

    /// `count` bytes from `offset`, or nil when they run past the end.
    func bytes(_ offset: Int, count: Int) -> Data? {
        guard offset >= 0, count >= 0, offset <= data.count, count <= data.count - offset else { return nil }
        let base = data.startIndex + offset
        return data.subdata(in: base..<(base + count))
    }
}
