// c1 and s1, the confirm value and key generation functions of LE legacy pairing.

extension SecurityFunctions {
    /// c1, the confirm value generation function of LE legacy pairing (Core v5.4 Vol 3 Part H §2.2.3):
    /// `c1(k, r, preq, pres, iat, rat, ia, ra) = e(k, e(k, r XOR p1) XOR p2)` with
    /// `p1 = pres ‖ preq ‖ rat' ‖ iat'` and `p2 = padding ‖ ia ‖ ra` (4 zero octets of padding).
    ///
    /// - Parameters:
    ///   - k: the TK (16 octets).
    ///   - r: Mrand or Srand (16 octets).
    ///   - preq: the Pairing Request command (7 octets).
    ///   - pres: the Pairing Response command (7 octets).
    ///   - iat: the initiating device's address type, 0 (public) or 1 (random).
    ///   - ia: the initiating device's address (6 octets).
    ///   - rat: the responding device's address type, 0 or 1.
    ///   - ra: the responding device's address (6 octets).
    package static func c1(k: [UInt8], r: [UInt8], preq: [UInt8], pres: [UInt8], iat: UInt8, ia: [UInt8],
                          rat: UInt8, ra: [UInt8]) throws(BluetoothCryptoError) -> [UInt8] {
        try requireLengths((k, 16, "k"), (r, 16, "r"), (preq, 7, "preq"), (pres, 7, "pres"), (ia, 6, "ia"), (ra, 6, "ra"))
        guard iat <= 1 else { throw .invalidArgument(what: "iat", reason: "an address type is 0 or 1, not \(iat)") }
        guard rat <= 1 else { throw .invalidArgument(what: "rat", reason: "an address type is 0 or 1, not \(rat)") }
        let p1 = pres + preq + [rat, iat]
        let p2 = [UInt8](repeating: 0, count: 4) + ia + ra
        let first = try AES128.encrypt(key: k, block: zip(r, p1).map { $0 ^ $1 })
        return try AES128.encrypt(key: k, block: zip(first, p2).map { $0 ^ $1 })
    }

    /// s1, the key generation function of LE legacy pairing (Core v5.4 Vol 3 Part H §2.2.4), which
    /// makes the STK: `s1(k, r1, r2) = e(k, r')` with `r' = r1' ‖ r2'`, the least significant
    /// 64 bits (the last 8 octets) of r1 and of r2.
    ///
    /// - Parameters:
    ///   - k: the TK (16 octets).
    ///   - r1: Srand (16 octets).
    ///   - r2: Mrand (16 octets).
    package static func s1(k: [UInt8], r1: [UInt8], r2: [UInt8]) throws(BluetoothCryptoError) -> [UInt8] {
        try requireLengths((k, 16, "k"), (r1, 16, "r1"), (r2, 16, "r2"))
        return try AES128.encrypt(key: k, block: Array(r1.suffix(8) + r2.suffix(8)))
    }
}
