/// A firmware or config file that cannot be used as it is: truncated, of another format, for another chip,
/// or without a patch for the controller's ROM version. One line: the file and what was expected of it.
package struct FirmwareError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file as the caller named it.
    package let file: String
    /// What was expected and what was found, without the file's name.
    package let problem: String

    package init(file: String, problem: String) {
        self.file = file
        self.problem = problem
    }

    package var description: String { "\(file): \(problem)" }
}

/// Little-endian reads at absolute offsets of a file's bytes; a read past the end throws the file's
/// `FirmwareError` naming the field, never traps.
struct FirmwareBytes {
    let bytes: [UInt8]
    let file: String

    func failure(_ problem: String) -> FirmwareError { FirmwareError(file: file, problem: problem) }

    /// Throws unless `count` octets from `offset` are within the file.
    func require(_ offset: Int, _ count: Int, _ field: String) throws(FirmwareError) {
        guard offset >= 0, count >= 0, offset <= bytes.count, count <= bytes.count - offset else {
            throw failure("\(field) (\(count) octets at offset \(offset)) runs past the end of the file (\(bytes.count) octets)")
        }
    }

    func u8(at offset: Int, _ field: String) throws(FirmwareError) -> UInt8 {
        try require(offset, 1, field)
        return bytes[offset]
    }

    func u16(at offset: Int, _ field: String) throws(FirmwareError) -> UInt16 {
        try require(offset, 2, field)
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    func u32(at offset: Int, _ field: String) throws(FirmwareError) -> UInt32 {
        try require(offset, 4, field)
        return (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    func slice(at offset: Int, count: Int, _ field: String) throws(FirmwareError) -> ArraySlice<UInt8> {
        try require(offset, count, field)
        return bytes[offset..<(offset + count)]
    }
}

extension BinaryInteger {
    /// `0x` and the value in lowercase hexadecimal, at least `digits` digits.
    func hex(_ digits: Int) -> String {
        let text = String(self, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
