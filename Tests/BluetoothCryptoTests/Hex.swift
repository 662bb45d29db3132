// Hex strings as the Core spec prints its sample data ("2b7e1516 28aed2a6 ..."), to octets.

/// The octets of `text`, two hex digits each, most significant first; spaces are ignored. A test
/// writes its vectors with this, so a non-hex character is a mistake in the test and traps.
func hex(_ text: String) -> [UInt8] {
    let digits = text.filter { $0 != " " && $0 != "\n" }
    precondition(digits.count.isMultiple(of: 2), "odd number of hex digits in \(text)")
    var bytes: [UInt8] = []
    var high: UInt8?
    for character in digits {
        guard let nibble = character.hexDigitValue.map(UInt8.init) else { preconditionFailure("not hex: \(character)") }
        if let first = high { bytes.append(first << 4 | nibble); high = nil } else { high = nibble }
    }
    return bytes
}
