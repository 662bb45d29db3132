import BluetoothCrypto

/// AES-128 for HCI_LE_Encrypt (Core v5.4 Vol 4 Part E §7.8.22; the `e` function of Vol 3 Part H §2.2.1):
/// `key` and `plaintext` are 16 octets least significant first, as HCI carries them, and so is the result.
/// Nil when either is not 16 octets or libcrypto fails; the command then completes with Unsupported Feature
/// or Parameter Value (0x11).
func simulatedLEEncrypt(key: [UInt8], plaintext: [UInt8]) -> [UInt8]? {
    guard key.count == 16, plaintext.count == 16 else { return nil }
    // AES takes its octets most significant first (FIPS-197 order): reversed in, reversed out.
    guard let block = try? AES128.encrypt(key: key.reversed(), block: plaintext.reversed()) else { return nil }
    return block.reversed()
}
