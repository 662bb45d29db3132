// The cryptographic toolbox of Core v5.4 Vol 3 Part H §2.2.

/// The LE security functions of Core v5.4 Vol 3 Part H §2.2, over `AES128` (the function e) and
/// `AESCMAC` (AES-CMAC_k):
/// - LE legacy pairing: c1, the confirm value (§2.2.3), and s1, the key generation function (§2.2.4);
/// - LE Secure Connections: f4 (§2.2.6), f5 (§2.2.7), f6 (§2.2.8) and g2 (§2.2.9);
/// - link key conversion: h6 (§2.2.10) and h7 (§2.2.11);
/// - the random address hash ah (§2.2.2).
///
/// Every argument and result is in the order the Core spec writes it, most significant octet
/// first (the spec's leftmost octet is `[0]`); SMP PDUs carry values least significant octet first,
/// and reversing them is the caller's work. Every length is checked: a wrong one throws
/// `.invalidLength` naming the argument.
package enum SecurityFunctions {
    /// AES-CMAC_key(message), throwing when libcrypto fails; `what` names the key for a length error.
    static func cmac(_ key: [UInt8], _ message: [UInt8], _ what: String) throws(BluetoothCryptoError) -> [UInt8] {
        guard let mac = AESCMAC(key: key) else { throw .invalidLength(what: what, expected: 16, got: key.count) }
        return try mac.mac(message)
    }
}
