@testable import GATT
import Testing

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

/// Decodes or records the typed error.
func attDecode(_ bytes: [UInt8]) -> Result<ATTPDU, ATTDecodingError> {
    do { return .success(try ATTPDU(decoding: bytes)) } catch { return .failure(error) }
}
