// AES-128 block encryption (FIPS-197), in pure Swift.

/// AES-128 encryption of single 16-octet blocks, as FIPS-197 specifies it.
///
/// Only the forward cipher is implemented: AES-CMAC (`AESCMAC`) and the
/// Bluetooth security functions built on it (Core v5.4 Vol 3 Part H §2.2) never
/// decrypt. Bytes are in the order FIPS-197 writes them (the first octet of the
/// key is `key[0]`), which is the order RFC 4493 and the GATT Database Hash use;
/// the little-endian order of Vol 3 Part H's `e` function is the caller's concern.
///
/// This is a table-based software implementation for protocol work (hashes of a
/// GATT database, test vectors), not a constant-time cipher for secrets.
public struct AES128: Sendable {
    /// The 11 round keys, 16 octets each, as one flat array of 176 octets.
    private let roundKeys: [UInt8]

    /// Expands a 16-octet key; nil when `key` is not exactly 16 octets.
    public init?(key: some Collection<UInt8>) {
        let key = Array(key)
        guard key.count == 16 else { return nil }
        roundKeys = Self.expand(key)
    }

    /// Encrypts one 16-octet block. A block of another length gives nil.
    public func encrypt(block: some Collection<UInt8>) -> [UInt8]? {
        let input = Array(block)
        guard input.count == 16 else { return nil }
        return encrypt16(input)
    }

    /// Encrypts exactly 16 octets (callers inside the module guarantee the length).
    func encrypt16(_ input: [UInt8]) -> [UInt8] {
        var state = input
        addRoundKey(&state, round: 0)
        for round in 1..<10 {
            subBytesShiftRows(&state)
            mixColumns(&state)
            addRoundKey(&state, round: round)
        }
        subBytesShiftRows(&state)
        addRoundKey(&state, round: 10)
        return state
    }

    // MARK: Rounds (FIPS-197 §5.1)

    private func addRoundKey(_ state: inout [UInt8], round: Int) {
        let base = round * 16
        for index in 0..<16 { state[index] ^= roundKeys[base + index] }
    }

    /// SubBytes then ShiftRows. The state is column-major: octet `r + 4c` is row r, column c.
    private func subBytesShiftRows(_ state: inout [UInt8]) {
        var out = state
        for column in 0..<4 {
            for row in 0..<4 {
                // Row r shifts left by r: the new column c takes the old column (c + r) mod 4.
                out[row + 4 * column] = Self.sBox[Int(state[row + 4 * ((column + row) & 3)])]
            }
        }
        state = out
    }

    private func mixColumns(_ state: inout [UInt8]) {
        for column in 0..<4 {
            let base = 4 * column
            let a0 = state[base], a1 = state[base + 1], a2 = state[base + 2], a3 = state[base + 3]
            state[base] = Self.xtime(a0) ^ (Self.xtime(a1) ^ a1) ^ a2 ^ a3
            state[base + 1] = a0 ^ Self.xtime(a1) ^ (Self.xtime(a2) ^ a2) ^ a3
            state[base + 2] = a0 ^ a1 ^ Self.xtime(a2) ^ (Self.xtime(a3) ^ a3)
            state[base + 3] = (Self.xtime(a0) ^ a0) ^ a1 ^ a2 ^ Self.xtime(a3)
        }
    }

    /// Multiplication by x in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1.
    static func xtime(_ value: UInt8) -> UInt8 {
        (value << 1) ^ (value & 0x80 != 0 ? 0x1B : 0)
    }

    // MARK: Key expansion (FIPS-197 §5.2)

    private static func expand(_ key: [UInt8]) -> [UInt8] {
        var words = key
        words.reserveCapacity(176)
        var rcon: UInt8 = 0x01
        for index in 4..<44 {
            let previous = (index - 1) * 4
            var temp = [words[previous], words[previous + 1], words[previous + 2], words[previous + 3]]
            if index % 4 == 0 {
                temp = [sBox[Int(temp[1])] ^ rcon, sBox[Int(temp[2])], sBox[Int(temp[3])], sBox[Int(temp[0])]]
                rcon = xtime(rcon)
            }
            let back = (index - 4) * 4
            for byte in 0..<4 { words.append(words[back + byte] ^ temp[byte]) }
        }
        return words
    }

    /// The S-box of FIPS-197 Figure 7.
    private static let sBox: [UInt8] = [
        0x63, 0x7C, 0x77, 0x7B, 0xF2, 0x6B, 0x6F, 0xC5, 0x30, 0x01, 0x67, 0x2B, 0xFE, 0xD7, 0xAB, 0x76,
        0xCA, 0x82, 0xC9, 0x7D, 0xFA, 0x59, 0x47, 0xF0, 0xAD, 0xD4, 0xA2, 0xAF, 0x9C, 0xA4, 0x72, 0xC0,
        0xB7, 0xFD, 0x93, 0x26, 0x36, 0x3F, 0xF7, 0xCC, 0x34, 0xA5, 0xE5, 0xF1, 0x71, 0xD8, 0x31, 0x15,
        0x04, 0xC7, 0x23, 0xC3, 0x18, 0x96, 0x05, 0x9A, 0x07, 0x12, 0x80, 0xE2, 0xEB, 0x27, 0xB2, 0x75,
        0x09, 0x83, 0x2C, 0x1A, 0x1B, 0x6E, 0x5A, 0xA0, 0x52, 0x3B, 0xD6, 0xB3, 0x29, 0xE3, 0x2F, 0x84,
        0x53, 0xD1, 0x00, 0xED, 0x20, 0xFC, 0xB1, 0x5B, 0x6A, 0xCB, 0xBE, 0x39, 0x4A, 0x4C, 0x58, 0xCF,
        0xD0, 0xEF, 0xAA, 0xFB, 0x43, 0x4D, 0x33, 0x85, 0x45, 0xF9, 0x02, 0x7F, 0x50, 0x3C, 0x9F, 0xA8,
        0x51, 0xA3, 0x40, 0x8F, 0x92, 0x9D, 0x38, 0xF5, 0xBC, 0xB6, 0xDA, 0x21, 0x10, 0xFF, 0xF3, 0xD2,
        0xCD, 0x0C, 0x13, 0xEC, 0x5F, 0x97, 0x44, 0x17, 0xC4, 0xA7, 0x7E, 0x3D, 0x64, 0x5D, 0x19, 0x73,
        0x60, 0x81, 0x4F, 0xDC, 0x22, 0x2A, 0x90, 0x88, 0x46, 0xEE, 0xB8, 0x14, 0xDE, 0x5E, 0x0B, 0xDB,
        0xE0, 0x32, 0x3A, 0x0A, 0x49, 0x06, 0x24, 0x5C, 0xC2, 0xD3, 0xAC, 0x62, 0x91, 0x95, 0xE4, 0x79,
        0xE7, 0xC8, 0x37, 0x6D, 0x8D, 0xD5, 0x4E, 0xA9, 0x6C, 0x56, 0xF4, 0xEA, 0x65, 0x7A, 0xAE, 0x08,
        0xBA, 0x78, 0x25, 0x2E, 0x1C, 0xA6, 0xB4, 0xC6, 0xE8, 0xDD, 0x74, 0x1F, 0x4B, 0xBD, 0x8B, 0x8A,
        0x70, 0x3E, 0xB5, 0x66, 0x48, 0x03, 0xF6, 0x0E, 0x61, 0x35, 0x57, 0xB9, 0x86, 0xC1, 0x1D, 0x9E,
        0xE1, 0xF8, 0x98, 0x11, 0x69, 0xD9, 0x8E, 0x94, 0x9B, 0x1E, 0x87, 0xE9, 0xCE, 0x55, 0x28, 0xDF,
        0x8C, 0xA1, 0x89, 0x0D, 0xBF, 0xE6, 0x42, 0x68, 0x41, 0x99, 0x2D, 0x0F, 0xB0, 0x54, 0xBB, 0x16,
    ]
}
