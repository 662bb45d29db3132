import BluetoothCrypto

/// A public key an MCUboot is built with to check images' signatures (bootutil's `bootutil_keys`): ECDSA P-256 or
/// Ed25519, read from the PEM `imgtool keygen` (private key) or `imgtool getpub -e pem` (public key) wrote.
package struct MCUbootPublicKey: Sendable, Hashable, CustomStringConvertible {
    let key: SignaturePublicKey
    /// The SHA-256 of the key's DER SubjectPublicKeyInfo: what an image's key hash TLV holds when signed with it.
    package let hash: [UInt8]

    /// Reads `pem`; a text that is no PEM key, or a key MCUboot does not sign with here, is `.badKey`.
    package init(pem: String) throws(MCUbootImageError) {
        do {
            try self.init(key: try SignaturePublicKey(pem: pem))
        } catch {
            throw .badKey(error.description)
        }
    }

    init(key: SignaturePublicKey) throws(BluetoothCryptoError) {
        self.key = key
        hash = try SHA256.digest(key.der)
    }

    /// The signature TLV kind the key checks.
    package var signatureKey: MCUbootSignatureKey {
        switch key.algorithm {
        case .ecdsaP256: .ecdsaP256
        case .ed25519: .ed25519
        }
    }

    package var description: String { "\(signatureKey) key \(hex(hash))" }
}
