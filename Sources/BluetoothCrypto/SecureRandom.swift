// Random octets from libcrypto's generator (RAND_bytes).

import CCrypto

/// Cryptographically secure random octets, from libcrypto's RAND_bytes: for the random numbers
/// of pairing (Mrand, Srand, Na, Nb: Core v5.4 Vol 3 Part H §2.3.5.5, §2.3.5.6), keys and the
/// prand of a resolvable private address.
package enum SecureRandom {
    /// `count` random octets; `.invalidArgument` for a negative count or one beyond Int32.max.
    package static func bytes(_ count: Int) throws(BluetoothCryptoError) -> [UInt8] {
        guard count >= 0, let length = Int32(exactly: count) else {
            throw .invalidArgument(what: "count", reason: "\(count) is not an octet count in 0 ... \(Int32.max)")
        }
        guard count > 0 else { return [] }
        var output = [UInt8](repeating: 0, count: count)
        try BluetoothCryptoError.check(RAND_bytes(&output, length), "RAND_bytes")
        return output
    }
}
