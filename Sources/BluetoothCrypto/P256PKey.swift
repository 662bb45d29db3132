// P-256 keys as libcrypto EVP_PKEYs, made for the length of one call from the bytes a key pair holds.

import CCrypto

/// Builds and reads libcrypto's EVP_PKEY for P-256 keys. An EVP_PKEY made here is the caller's to free
/// (EVP_PKEY_free) before it returns: key pairs keep bytes, never libcrypto handles. Names go to libcrypto
/// as the shim's static C strings (CCRYPTO_…), as it keeps some of them beyond the call.
enum P256PKey {
    /// A fresh random private key from libcrypto's EC key generator (EVP_PKEY_generate on "P-256").
    static func generatePrivateKey() throws(BluetoothCryptoError) -> [UInt8] {
        let key = try generate()
        defer { EVP_PKEY_free(key) }
        var scalar: OpaquePointer?
        try BluetoothCryptoError.check(EVP_PKEY_get_bn_param(key, CCRYPTO_PARAM_PRIV_KEY, &scalar),
                                       "EVP_PKEY_get_bn_param(priv)")
        defer { BN_clear_free(scalar) }
        var privateKey = [UInt8](repeating: 0, count: 32)
        guard BN_bn2binpad(scalar, &privateKey, 32) == 32 else { throw .libcryptoFailure("BN_bn2binpad") }
        return privateKey
    }

    /// A fresh random P-256 key pair as an EVP_PKEY (EVP_PKEY_generate on "P-256"): the caller frees it.
    static func generate() throws(BluetoothCryptoError) -> OpaquePointer {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, CCRYPTO_KEY_TYPE_EC, nil) else {
            throw .libcryptoFailure("EVP_PKEY_CTX_new_from_name(EC)")
        }
        defer { EVP_PKEY_CTX_free(context) }
        try BluetoothCryptoError.check(EVP_PKEY_keygen_init(context), "EVP_PKEY_keygen_init")
        try BluetoothCryptoError.check(EVP_PKEY_CTX_set_group_name(context, CCRYPTO_GROUP_P256), "EVP_PKEY_CTX_set_group_name(P-256)")
        var key: OpaquePointer?
        try BluetoothCryptoError.check(EVP_PKEY_generate(context, &key), "EVP_PKEY_generate")
        guard let key else { throw .libcryptoFailure("EVP_PKEY_generate") }
        return key
    }

    /// An EVP_PKEY on P-256 with the public point (x, y) and, when given, the private key: the
    /// caller frees it. The point must already be checked (`P256Curve.validate`).
    static func make(x: [UInt8], y: [UInt8], privateKey: [UInt8]?) throws(BluetoothCryptoError) -> OpaquePointer {
        guard let builder = OSSL_PARAM_BLD_new() else { throw .libcryptoFailure("OSSL_PARAM_BLD_new") }
        defer { OSSL_PARAM_BLD_free(builder) }
        var scalar: OpaquePointer?
        if let privateKey {
            scalar = BN_bin2bn(privateKey, Int32(privateKey.count), nil)
            guard scalar != nil else { throw .libcryptoFailure("BN_bin2bn") }
        }
        defer { BN_clear_free(scalar) }
        let point = P256Curve.encodedPoint(x: x, y: y)
        // The builder keeps pointers to what is pushed until OSSL_PARAM_BLD_to_param copies it.
        let parameters = point.withUnsafeBytes { pointBytes in
            guard OSSL_PARAM_BLD_push_utf8_string(builder, CCRYPTO_PARAM_GROUP_NAME, CCRYPTO_GROUP_P256, 0) == 1,
                  OSSL_PARAM_BLD_push_octet_string(builder, CCRYPTO_PARAM_PUB_KEY, pointBytes.baseAddress, pointBytes.count) == 1,
                  scalar == nil || OSSL_PARAM_BLD_push_BN(builder, CCRYPTO_PARAM_PRIV_KEY, scalar) == 1 else {
                return nil as UnsafeMutablePointer<OSSL_PARAM>?
            }
            return OSSL_PARAM_BLD_to_param(builder)
        }
        guard let parameters else { throw .libcryptoFailure("OSSL_PARAM_BLD_to_param") }
        defer { OSSL_PARAM_free(parameters) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, CCRYPTO_KEY_TYPE_EC, nil) else {
            throw .libcryptoFailure("EVP_PKEY_CTX_new_from_name(EC)")
        }
        defer { EVP_PKEY_CTX_free(context) }
        try BluetoothCryptoError.check(EVP_PKEY_fromdata_init(context), "EVP_PKEY_fromdata_init")
        var key: OpaquePointer?
        let selection = scalar == nil ? CCRYPTO_EVP_PKEY_PUBLIC_KEY : CCRYPTO_EVP_PKEY_KEYPAIR
        try BluetoothCryptoError.check(EVP_PKEY_fromdata(context, &key, selection, parameters), "EVP_PKEY_fromdata")
        guard let key else { throw .libcryptoFailure("EVP_PKEY_fromdata") }
        return key
    }
}
