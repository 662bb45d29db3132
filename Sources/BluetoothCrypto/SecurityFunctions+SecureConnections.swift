// f4, f5, f6 and g2, the functions of LE Secure Connections pairing.

extension SecurityFunctions {
    /// f4, the LE Secure Connections confirm value generation function (Core v5.4 Vol 3 Part H §2.2.6):
    /// `f4(U, V, X, Z) = AES-CMAC_X(U ‖ V ‖ Z)`.
    ///
    /// - Parameters:
    ///   - u: a public key X coordinate, PKax or PKbx (32 octets).
    ///   - v: the other public key X coordinate (32 octets).
    ///   - x: the nonce Na or Nb, the CMAC key (16 octets).
    ///   - z: 0 for Just Works, Numeric Comparison and OOB; 0x80 or 0x81 with a passkey bit.
    package static func f4(u: [UInt8], v: [UInt8], x: [UInt8], z: UInt8) throws(BluetoothCryptoError) -> [UInt8] {
        try requireLengths((u, 32, "u"), (v, 32, "v"))
        return try cmac(x, u + v + [z], "x")
    }

    /// f5, the LE Secure Connections key generation function (Core v5.4 Vol 3 Part H §2.2.7):
    /// `T = AES-CMAC_SALT(W)` with SALT = 0x6C888391AAF5A53860370BDB5A6083BE, then
    /// `MacKey = AES-CMAC_T(0 ‖ keyID ‖ N1 ‖ N2 ‖ A1 ‖ A2 ‖ Length)` and `LTK` the same with counter 1,
    /// keyID 0x62746c65 ("btle") and Length 256.
    ///
    /// - Parameters:
    ///   - w: the DHKey (32 octets).
    ///   - n1: Na (16 octets).
    ///   - n2: Nb (16 octets).
    ///   - a1: the initiator's address type octet then its 6 address octets (7 octets).
    ///   - a2: the responder's address, likewise (7 octets).
    package static func f5(w: [UInt8], n1: [UInt8], n2: [UInt8], a1: [UInt8],
                          a2: [UInt8]) throws(BluetoothCryptoError) -> (macKey: [UInt8], ltk: [UInt8]) {
        try requireLengths((w, 32, "w"), (n1, 16, "n1"), (n2, 16, "n2"), (a1, 7, "a1"), (a2, 7, "a2"))
        let salt: [UInt8] = [0x6C, 0x88, 0x83, 0x91, 0xAA, 0xF5, 0xA5, 0x38, 0x60, 0x37, 0x0B, 0xDB, 0x5A, 0x60, 0x83, 0xBE]
        let t = try cmac(salt, w, "SALT")
        let keyID: [UInt8] = [0x62, 0x74, 0x6C, 0x65]
        let rest = keyID + n1 + n2 + a1 + a2 + [0x01, 0x00]
        return (try cmac(t, [0x00] + rest, "T"), try cmac(t, [0x01] + rest, "T"))
    }

    /// f6, the LE Secure Connections check value generation function (Core v5.4 Vol 3 Part H §2.2.8):
    /// `f6(W, N1, N2, R, IOcap, A1, A2) = AES-CMAC_W(N1 ‖ N2 ‖ R ‖ IOcap ‖ A1 ‖ A2)`.
    ///
    /// - Parameters:
    ///   - w: the MacKey (16 octets).
    ///   - n1, n2: the nonces (16 octets each).
    ///   - r: ra or rb (16 octets).
    ///   - ioCap: IOcapA or IOcapB, AuthReq ‖ OOB data flag ‖ IO capability (3 octets).
    ///   - a1, a2: address type octet and address (7 octets each).
    package static func f6(w: [UInt8], n1: [UInt8], n2: [UInt8], r: [UInt8], ioCap: [UInt8], a1: [UInt8],
                          a2: [UInt8]) throws(BluetoothCryptoError) -> [UInt8] {
        try requireLengths((n1, 16, "n1"), (n2, 16, "n2"), (r, 16, "r"), (ioCap, 3, "ioCap"), (a1, 7, "a1"), (a2, 7, "a2"))
        return try cmac(w, n1 + n2 + r + ioCap + a1 + a2, "w")
    }

    /// g2, the LE Secure Connections numeric comparison value generation function
    /// (Core v5.4 Vol 3 Part H §2.2.9): `g2(U, V, X, Y) = AES-CMAC_X(U ‖ V ‖ Y) mod 2^32`.
    /// The six digits to show are this value mod 1 000 000, which is the caller's to take.
    ///
    /// - Parameters:
    ///   - u: PKax (32 octets).
    ///   - v: PKbx (32 octets).
    ///   - x: Na, the CMAC key (16 octets).
    ///   - y: Nb (16 octets).
    package static func g2(u: [UInt8], v: [UInt8], x: [UInt8], y: [UInt8]) throws(BluetoothCryptoError) -> UInt32 {
        try requireLengths((u, 32, "u"), (v, 32, "v"), (y, 16, "y"))
        let mac = try cmac(x, u + v + y, "x")
        return mac.suffix(4).reduce(0) { $0 << 8 | UInt32($1) }
    }
}
