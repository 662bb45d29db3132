// The DHKey of LE Secure Connections: ECDH on P-256 through libcrypto's EVP_PKEY_derive.

import CCrypto

extension P256KeyPair {
    /// The DHKey (Core v5.4 Vol 3 Part H §2.3.5.6.1): P-256 ECDH of this private key with the peer's
    /// public key (peerX, peerY), the X coordinate of d·PK, 32 octets most significant first.
    ///
    /// Throws `.invalidLength` unless both coordinates are 32 octets, and `.invalidPublicKey` when
    /// the peer's point is not on P-256 — the invalid curve attack defence the spec requires.
    package func dhKey(peerX: [UInt8], peerY: [UInt8]) throws(BluetoothCryptoError) -> [UInt8] {
        try P256Curve.validate(x: peerX, y: peerY)
        let own = try P256PKey.make(x: publicKeyX, y: publicKeyY, privateKey: privateKey)
        defer { EVP_PKEY_free(own) }
        let peer = try P256PKey.make(x: peerX, y: peerY, privateKey: nil)
        defer { EVP_PKEY_free(peer) }
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, own, nil) else {
            throw .libcryptoFailure("EVP_PKEY_CTX_new_from_pkey")
        }
        defer { EVP_PKEY_CTX_free(context) }
        try BluetoothCryptoError.check(EVP_PKEY_derive_init(context), "EVP_PKEY_derive_init")
        // validate_peer 1: libcrypto checks the peer key once more (EVP_PKEY_public_check).
        guard EVP_PKEY_derive_set_peer_ex(context, peer, 1) == 1 else {
            ERR_clear_error()
            throw .invalidPublicKey
        }
        var length = 0
        try BluetoothCryptoError.check(EVP_PKEY_derive(context, nil, &length), "EVP_PKEY_derive")
        guard length == 32 else {
            throw .libcrypto(operation: "EVP_PKEY_derive", detail: "a DHKey of \(length) octets, not 32")
        }
        var secret = [UInt8](repeating: 0, count: 32)
        try BluetoothCryptoError.check(EVP_PKEY_derive(context, &secret, &length), "EVP_PKEY_derive")
        guard length == 32 else {
            throw .libcrypto(operation: "EVP_PKEY_derive", detail: "a DHKey of \(length) octets, not 32")
        }
        return secret
    }
}
