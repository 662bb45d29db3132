// A private key that makes ECDSA P-256 signatures through libcrypto: what imgtool signs MCUboot images with.

import CCrypto

/// An ECDSA P-256 private key (FIPS 186-5), kept as its DER encoding (`i2d_PrivateKey`), never as a libcrypto
/// handle: each signature builds its EVP_PKEY and frees it. Read from the PEM `imgtool keygen -t ecdsa-p256`
/// writes (PKCS#8 `-----BEGIN PRIVATE KEY-----`, or SEC1 `-----BEGIN EC PRIVATE KEY-----`) or made fresh.
package struct SignaturePrivateKey: Sendable, Hashable {
    /// The DER private key.
    private let der: [UInt8]
    /// Its public half: the key that verifies its signatures.
    package let publicKey: SignaturePublicKey

    /// Reads a PEM private key; text that is none, or a key of another algorithm or curve, is `.invalidArgument`.
    package init(pem: String) throws(BluetoothCryptoError) {
        let key = Array(pem.utf8).withUnsafeBytes { buffer -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let key else {
            ERR_clear_error()
            throw .invalidArgument(what: "PEM private key", reason: "no PEM private key libcrypto reads")
        }
        defer { EVP_PKEY_free(key) }
        try self.init(key: key)
    }

    /// A fresh random P-256 key from libcrypto's key generator.
    package static func generateECDSAP256() throws(BluetoothCryptoError) -> SignaturePrivateKey {
        let key = try P256PKey.generate()
        defer { EVP_PKEY_free(key) }
        return try SignaturePrivateKey(key: key)
    }

    private init(key: OpaquePointer) throws(BluetoothCryptoError) {
        publicKey = try SignaturePublicKey(key: key)
        guard publicKey.algorithm == .ecdsaP256 else {
            throw .invalidArgument(what: "PEM private key", reason: "an \(publicKey.algorithm) key; only ECDSA P-256 signs here")
        }
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_PrivateKey(key, &out)
        guard length > 0, let out else { throw .libcryptoFailure("i2d_PrivateKey") }
        defer { CRYPTO_clear_free(out, Int(length), #fileID, #line) }
        der = Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    /// The ECDSA signature of the 32-octet `digest` as it is (libcrypto's EVP_PKEY_sign, the counterpart of
    /// `SignaturePublicKey.verifiesECDSA`, as imgtool signs an image's SHA-256): a DER `Ecdsa-Sig-Value`
    /// (RFC 5480 §2.2.3) of at most 72 octets, with a fresh random nonce each time.
    package func signECDSA(digest: [UInt8]) throws(BluetoothCryptoError) -> [UInt8] {
        try requireLength(digest, 32, "digest")
        let key = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
        }
        guard let key else { throw .libcryptoFailure("d2i_AutoPrivateKey") }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else { throw .libcryptoFailure("EVP_PKEY_CTX_new_from_pkey") }
        defer { EVP_PKEY_CTX_free(context) }
        try BluetoothCryptoError.check(EVP_PKEY_sign_init(context), "EVP_PKEY_sign_init")
        var length = 0
        try BluetoothCryptoError.check(EVP_PKEY_sign(context, nil, &length, digest, digest.count), "EVP_PKEY_sign (its length)")
        var signature = [UInt8](repeating: 0, count: length)
        try BluetoothCryptoError.check(EVP_PKEY_sign(context, &signature, &length, digest, digest.count), "EVP_PKEY_sign")
        return Array(signature.prefix(length))
    }
}
