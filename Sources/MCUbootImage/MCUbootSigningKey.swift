import BluetoothCrypto

/// A private key that signs MCUboot images as `imgtool sign -k KEY` does: ECDSA P-256 (imgtool's
/// `keygen -t ecdsa-p256`), read from the PEM imgtool wrote or made fresh. For test benches: a real product's
/// key stays with its signing service.
package struct MCUbootSigningKey: Sendable, Hashable, CustomStringConvertible {
    let key: SignaturePrivateKey
    /// The public key an MCUboot built to accept this key's images checks them with.
    package let publicKey: MCUbootPublicKey

    /// Reads `pem` (imgtool's `keygen -t ecdsa-p256` output); text that is no PEM private key, or a key of
    /// another kind, is `.badKey`.
    package init(pem: String) throws(MCUbootImageError) {
        do { try self.init(key: try SignaturePrivateKey(pem: pem)) } catch { throw .badKey(error.description) }
    }

    /// A fresh random ECDSA P-256 key.
    package static func generate() throws(MCUbootImageError) -> MCUbootSigningKey {
        do { return try MCUbootSigningKey(key: try SignaturePrivateKey.generateECDSAP256()) } catch { throw .badKey(error.description) }
    }

    private init(key: SignaturePrivateKey) throws(BluetoothCryptoError) {
        self.key = key
        publicKey = try MCUbootPublicKey(key: key.publicKey)
    }

    package var description: String { "\(publicKey.signatureKey) signing key \(hex(publicKey.hash))" }
}
