// A public key that checks signatures (ECDSA P-256, Ed25519), read from PEM by libcrypto: what MCUboot is built
// with to check an image's signature TLV.

import CCrypto

/// A signature-checking public key, kept as its DER SubjectPublicKeyInfo (RFC 5480 for ECDSA P-256, RFC 8410 for
/// Ed25519): the octets imgtool's `getpub` prints and whose SHA-256 an MCUboot image's key hash TLV holds. Like the
/// other keys here it keeps bytes, never a libcrypto handle: each check builds its EVP_PKEY and frees it.
package struct SignaturePublicKey: Sendable, Hashable {
    /// The algorithms checked here.
    package enum Algorithm: Sendable, Hashable, CustomStringConvertible {
        /// ECDSA on P-256 (FIPS 186-5), a DER `Ecdsa-Sig-Value` over a 32-octet digest.
        case ecdsaP256
        /// Ed25519 (RFC 8032), a 64-octet signature over a message.
        case ed25519

        package var description: String {
            switch self {
            case .ecdsaP256: "ECDSA P-256"
            case .ed25519: "Ed25519"
            }
        }
    }

    package let algorithm: Algorithm
    /// The DER SubjectPublicKeyInfo.
    package let der: [UInt8]

    /// Reads a PEM public key (`-----BEGIN PUBLIC KEY-----`) or the public half of a PEM private key (as
    /// `imgtool keygen` writes it). A text that is neither, or a key of another algorithm or curve, is
    /// `.invalidArgument`.
    package init(pem: String) throws(BluetoothCryptoError) {
        let bytes = Array(pem.utf8)
        guard let key = Self.readPEM(bytes) else {
            ERR_clear_error()
            throw .invalidArgument(what: "PEM key", reason: "neither a PEM public key nor a PEM private key libcrypto reads")
        }
        defer { EVP_PKEY_free(key) }
        try self.init(key: key)
    }

    /// The public half of `key` (which stays the caller's): its algorithm checked, its SubjectPublicKeyInfo kept.
    init(key: OpaquePointer) throws(BluetoothCryptoError) {
        algorithm = try Self.algorithm(of: key)
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_PUBKEY(key, &out)
        guard length > 0, let out else { throw .libcryptoFailure("i2d_PUBKEY") }
        defer { CRYPTO_free(out, #fileID, #line) }
        der = Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    private static func readPEM(_ bytes: [UInt8]) -> OpaquePointer? {
        bytes.withUnsafeBytes { buffer -> OpaquePointer? in
            func read(_ reader: (OpaquePointer) -> OpaquePointer?) -> OpaquePointer? {
                guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
                defer { BIO_free(bio) }
                return reader(bio)
            }
            return read { PEM_read_bio_PUBKEY($0, nil, nil, nil) } ?? read { PEM_read_bio_PrivateKey($0, nil, nil, nil) }
        }
    }

    static func algorithm(of key: OpaquePointer) throws(BluetoothCryptoError) -> Algorithm {
        switch EVP_PKEY_get_base_id(key) {
        case EVP_PKEY_ED25519:
            return .ed25519
        case EVP_PKEY_EC:
            var name = [CChar](repeating: 0, count: 64)
            var length = 0
            try BluetoothCryptoError.check(EVP_PKEY_get_group_name(key, &name, name.count, &length), "EVP_PKEY_get_group_name")
            let group = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard group == "prime256v1" || group == "P-256" else {
                throw .invalidArgument(what: "PEM key", reason: "an EC key on \(group), not P-256")
            }
            return .ecdsaP256
        case let other:
            throw .invalidArgument(what: "PEM key", reason: "a key of type \(String(cString: OBJ_nid2sn(other))), not EC P-256 or Ed25519")
        }
    }

    /// The EVP_PKEY of `der`, for one call: the caller frees it.
    private func makeKey() throws(BluetoothCryptoError) -> OpaquePointer {
        let key = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, buffer.count)
        }
        guard let key else { throw .libcryptoFailure("d2i_PUBKEY") }
        return key
    }

    /// Whether `signature` (DER `Ecdsa-Sig-Value`) is this ECDSA P-256 key's signature of the 32-octet `digest`
    /// (libcrypto's EVP_PKEY_verify, which takes the digest as it is, as MCUboot's bootutil_verify_sig does).
    /// A malformed signature is a signature that does not verify.
    package func verifiesECDSA(signature: [UInt8], digest: [UInt8]) throws(BluetoothCryptoError) -> Bool {
        guard algorithm == .ecdsaP256 else { throw .invalidArgument(what: "key", reason: "an \(algorithm) key checks no ECDSA signature") }
        try requireLength(digest, 32, "digest")
        let key = try makeKey()
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else { throw .libcryptoFailure("EVP_PKEY_CTX_new_from_pkey") }
        defer { EVP_PKEY_CTX_free(context) }
        try BluetoothCryptoError.check(EVP_PKEY_verify_init(context), "EVP_PKEY_verify_init")
        let result = EVP_PKEY_verify(context, signature, signature.count, digest, digest.count)
        ERR_clear_error()
        return result == 1
    }

    /// Whether `signature` (64 octets) is this Ed25519 key's signature of `message` (EVP_DigestVerify, pure
    /// Ed25519). A signature of another length is one that does not verify.
    package func verifiesEd25519(signature: [UInt8], message: [UInt8]) throws(BluetoothCryptoError) -> Bool {
        guard algorithm == .ed25519 else { throw .invalidArgument(what: "key", reason: "an \(algorithm) key checks no Ed25519 signature") }
        let key = try makeKey()
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { throw .libcryptoFailure("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        try BluetoothCryptoError.check(EVP_DigestVerifyInit(context, nil, nil, nil, key), "EVP_DigestVerifyInit")
        let result = EVP_DigestVerify(context, signature, signature.count, message, message.count)
        ERR_clear_error()
        return result == 1
    }
}
