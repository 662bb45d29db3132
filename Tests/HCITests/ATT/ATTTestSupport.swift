import Testing
@testable import HCI

/// "0A 03 00" → [0x0A, 0x03, 0x00]; spaces ignored.
func attHex(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var high: UInt8?
    for character in text {
        guard let nibble = character.hexDigitValue.map(UInt8.init) else { continue }
        if let first = high { bytes.append(first << 4 | nibble); high = nil } else { high = nibble }
    }
    return bytes
}

/// SplitMix64, so fuzz runs are reproducible.
struct ATTSeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Decodes or records the typed error.
func attDecode(_ bytes: [UInt8]) -> Result<ATTPDU, ATTDecodingError> {
    do { return .success(try ATTPDU(decoding: bytes)) } catch { return .failure(error) }
}
