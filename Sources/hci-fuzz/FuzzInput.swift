// Reading a fuzzer's bytes as a sequence of choices and chunks.

/// Consumes a fuzz input front to back: numbers pick choices, length-prefixed chunks become PDUs. Reads
/// past the end give zeros and empty chunks, so every input is a valid script.
struct FuzzInput {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index >= bytes.count }
    var remaining: Int { max(0, bytes.count - index) }

    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func u16() -> UInt16 { UInt16(byte()) | UInt16(byte()) << 8 }

    /// A choice among `count` (> 0) options.
    mutating func pick(_ count: Int) -> Int { Int(byte()) % max(count, 1) }

    /// `count` bytes (fewer at the end).
    mutating func take(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, index + max(0, count))
        defer { index = max(index, end) }
        return index < end ? Array(bytes[index..<end]) : []
    }

    /// A chunk whose length is the next byte.
    mutating func chunk() -> [UInt8] { take(Int(byte())) }

    /// Everything left.
    mutating func rest() -> [UInt8] { take(remaining) }
}
