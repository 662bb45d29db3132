// ah, the hash of a resolvable private address.

extension SecurityFunctions {
    /// ah, the random address hash function (Core v5.4 Vol 3 Part H §2.2.2):
    /// `ah(k, r) = e(k, r') mod 2^24` with `r' = padding ‖ r` (13 zero octets of padding).
    /// With an IRK as k and a prand as r it gives the hash of a resolvable private address.
    ///
    /// - Parameters:
    ///   - k: the IRK (16 octets).
    ///   - r: prand (3 octets).
    /// - Returns: the 24-bit hash, 3 octets.
    package static func ah(k: [UInt8], r: [UInt8]) throws(BluetoothCryptoError) -> [UInt8] {
        try requireLengths((k, 16, "k"), (r, 3, "r"))
        let encrypted = try AES128.encrypt(key: k, block: [UInt8](repeating: 0, count: 13) + r)
        return Array(encrypted.suffix(3))
    }
}
