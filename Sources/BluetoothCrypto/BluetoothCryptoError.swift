// The one error type of BluetoothCrypto.

/// Why a BluetoothCrypto operation failed.
///
/// Inputs are checked before libcrypto sees them: a wrong length or value is
/// `.invalidLength` or `.invalidArgument`, naming the argument; a public key whose
/// point is not on P-256 is `.invalidPublicKey` (the defence against the invalid
/// curve attack, Core v5.4 Vol 3 Part H §2.3.5.6.1). `.libcrypto` is libcrypto
/// itself failing, with the first error of its queue.
package enum BluetoothCryptoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A libcrypto call failed; `detail` is the first entry of its error queue (ERR_get_error), as text.
    case libcrypto(operation: String, detail: String)
    /// An argument had `got` octets where the function takes `expected`.
    case invalidLength(what: String, expected: Int, got: Int)
    /// An argument had the right length but a value the function does not take.
    case invalidArgument(what: String, reason: String)
    /// A peer's public key is not a point on P-256 (or is not a valid public key of it).
    case invalidPublicKey
    /// A private key is not a scalar in 1 ..< n, n the order of P-256.
    case invalidPrivateKey

    package var description: String {
        switch self {
        case .libcrypto(let operation, let detail):
            return "libcrypto \(operation) failed: \(detail)"
        case .invalidLength(let what, let expected, let got):
            return "\(what) must be \(expected) octets, not \(got)"
        case .invalidArgument(let what, let reason):
            return "\(what): \(reason)"
        case .invalidPublicKey:
            return "the public key is not a point on P-256"
        case .invalidPrivateKey:
            return "the private key is not a scalar in 1 ..< n of P-256"
        }
    }
}
