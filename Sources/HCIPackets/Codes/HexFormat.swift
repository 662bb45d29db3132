// Hexadecimal formatting and strict parsing shared by the assigned-number types.

/// Fixed-width uppercase hexadecimal text, and strict hexadecimal parsing, for
/// the assigned numbers in `Codes/` and `Advertising/`.
///
/// Parsing here is stricter than `FixedWidthInteger(_:radix:)`, which also
/// accepts a leading `+` or `-`: only the digits `0-9`, `a-f` and `A-F` pass.
package enum HexFormat {
    private static let digits: [Character] = Array("0123456789ABCDEF")

    /// `value` as exactly `width` uppercase hexadecimal digits, without a prefix
    /// (the low `width` nibbles if the value is wider).
    package static func digits(_ value: some BinaryInteger, width: Int) -> String {
        let wide = UInt64(truncatingIfNeeded: value)
        var text = ""
        text.reserveCapacity(width)
        for nibble in stride(from: width - 1, through: 0, by: -1) {
            let shift = UInt64(nibble * 4)
            let index = shift < 64 ? Int((wide >> shift) & 0xF) : 0
            text.append(digits[index])
        }
        return text
    }

    /// `"0x"` followed by `width` uppercase hexadecimal digits.
    package static func prefixed(_ value: some BinaryInteger, width: Int) -> String {
        "0x" + digits(value, width: width)
    }

    /// Bytes as contiguous uppercase hexadecimal pairs, e.g. `"0201 06"` → `"020106"`.
    package static func bytes(_ bytes: some Sequence<UInt8>) -> String {
        var text = ""
        for byte in bytes { text += digits(byte, width: 2) }
        return text
    }

    /// The value of one hexadecimal digit, or nil.
    static func nibble(_ character: Character) -> UInt8? {
        guard let ascii = character.asciiValue else { return nil }
        switch ascii {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return ascii - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return ascii - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return ascii - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Parses 1 to 16 hexadecimal digits (no prefix, no sign) into a value.
    static func parse(_ text: some StringProtocol) -> UInt64? {
        guard !text.isEmpty, text.count <= 16 else { return nil }
        var value: UInt64 = 0
        for character in text {
            guard let digit = nibble(character) else { return nil }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    /// Parses an even number of hexadecimal digits into bytes, first pair first.
    static func parseBytes(_ text: some StringProtocol) -> [UInt8]? {
        guard text.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 2)
        var high: UInt8?
        for character in text {
            guard let digit = nibble(character) else { return nil }
            if let first = high {
                bytes.append(first << 4 | digit)
                high = nil
            } else {
                high = digit
            }
        }
        return bytes
    }
}
