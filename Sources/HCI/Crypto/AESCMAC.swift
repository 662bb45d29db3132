// AES-CMAC (RFC 4493 / NIST SP 800-38B) over AES-128.

/// AES-CMAC with a 128-bit key, as RFC 4493 defines it.
///
/// Bluetooth uses it for the GATT Database Hash (Core v5.4 Vol 3 Part G §7.3,
/// with an all-zero key) and for the LE Secure Connections functions of
/// Vol 3 Part H §2.2.5 (f4, f5, f6, g2), which call it `AES-CMAC_K(M)`. Octets are
/// in RFC 4493 order: `message[0]` is the first octet MSB-first.
public struct AESCMAC: Sendable {
    private let cipher: AES128
    private let k1: [UInt8]
    private let k2: [UInt8]

    /// Prepares the subkeys K1 and K2 for `key` (RFC 4493 §2.3); nil unless the key is 16 octets.
    public init?(key: some Collection<UInt8>) {
        guard let cipher = AES128(key: key) else { return nil }
        self.cipher = cipher
        let l = cipher.encrypt16([UInt8](repeating: 0, count: 16))
        k1 = Self.doubled(l)
        k2 = Self.doubled(k1)
    }

    /// The 16-octet MAC of `message` (any length, including empty).
    public func authenticate(_ message: some Collection<UInt8>) -> [UInt8] {
        let message = Array(message)
        let blockCount = max(1, (message.count + 15) / 16)
        let lastIsComplete = !message.isEmpty && message.count % 16 == 0
        var state = [UInt8](repeating: 0, count: 16)
        for block in 0..<(blockCount - 1) {
            for index in 0..<16 { state[index] ^= message[block * 16 + index] }
            state = cipher.encrypt16(state)
        }
        let lastStart = (blockCount - 1) * 16
        var last = Array(message[lastStart...])
        if lastIsComplete {
            for index in 0..<16 { last[index] ^= k1[index] }
        } else {
            last.append(0x80)
            while last.count < 16 { last.append(0) }
            for index in 0..<16 { last[index] ^= k2[index] }
        }
        for index in 0..<16 { state[index] ^= last[index] }
        return cipher.encrypt16(state)
    }

    /// AES-CMAC of `message` under `key`; nil unless the key is 16 octets.
    public static func mac(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8]? {
        AESCMAC(key: key)?.authenticate(message)
    }

    /// Left shift by one bit of a 128-bit string, XOR Rb (0x87) when the top bit was set.
    private static func doubled(_ value: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 16)
        var carry: UInt8 = 0
        for index in stride(from: 15, through: 0, by: -1) {
            out[index] = value[index] << 1 | carry
            carry = value[index] >> 7
        }
        if carry != 0 { out[15] ^= 0x87 }
        return out
    }
}
