// h6 and h7, the link key conversion functions between LE and BR/EDR keys.

extension SecurityFunctions {
    /// h6, the link key conversion function (Core v5.4 Vol 3 Part H §2.2.10):
    /// `h6(W, keyID) = AES-CMAC_W(keyID)`.
    ///
    /// - Parameters:
    ///   - w: the key to convert, an LTK or a link key (16 octets).
    ///   - keyID: 4 octets as the spec writes them, e.g. "tmp1" 0x746D7031, "lebr" 0x6C656272,
    ///     "tmp2" 0x746D7032, "brle" 0x62726C65.
    package static func h6(w: [UInt8], keyID: [UInt8]) throws(BluetoothCryptoError) -> [UInt8] {
        try requireLength(keyID, 4, "keyID")
        return try cmac(w, keyID, "w")
    }

    /// h7, the link key conversion function with a SALT (Core v5.4 Vol 3 Part H §2.2.11), used when
    /// CT2 is set: `h7(SALT, W) = AES-CMAC_SALT(W)`.
    ///
    /// - Parameters:
    ///   - salt: 16 octets, e.g. 0x000000000000000000000000746D7031 ("tmp1") or ...746D7032 ("tmp2").
    ///   - w: the key to convert (16 octets).
    package static func h7(salt: [UInt8], w: [UInt8]) throws(BluetoothCryptoError) -> [UInt8] {
        try requireLength(w, 16, "w")
        return try cmac(salt, w, "salt")
    }
}
