// AES-CMAC (RFC 4493) through libcrypto's EVP_MAC "CMAC" with the cipher AES-128-CBC.

import CCrypto

/// AES-CMAC with a 128-bit key (RFC 4493, NIST SP 800-38B): the Core spec's `AES-CMAC_k`
/// (Core v5.4 Vol 3 Part H §2.2.5), the function under f4, f5, f6, g2, h6 and h7, and the
/// GATT Database Hash (Vol 3 Part G §7.3).
///
/// Key, message and MAC are in the order RFC 4493 and the Core spec write them: `message[0]`
/// is the most significant octet of the spec's `m`. The value holds only the key's bytes.
package struct AESCMAC: Sendable {
    /// The 16-octet key `k`.
    let key: [UInt8]

    /// An AES-CMAC under `key`; nil unless the key is 16 octets.
    package init?(key: [UInt8]) {
        guard key.count == 16 else { return nil }
        self.key = key
    }

    /// `AES-CMAC_k(message)`, 16 octets, for a message of any length (including empty).
    ///
    /// Returns an empty array only if libcrypto itself fails (it cannot allocate, or its default
    /// provider has no CMAC); the functions of `SecurityFunctions` report that as an error instead.
    package func authenticate(_ message: [UInt8]) -> [UInt8] {
        (try? mac(message)) ?? []
    }

    /// `AES-CMAC_k(message)`, throwing `.libcrypto` when libcrypto fails.
    func mac(_ message: [UInt8]) throws(BluetoothCryptoError) -> [UInt8] {
        guard let algorithm = EVP_MAC_fetch(nil, CCRYPTO_MAC_CMAC, nil) else { throw .libcryptoFailure("EVP_MAC_fetch(CMAC)") }
        defer { EVP_MAC_free(algorithm) }
        guard let context = EVP_MAC_CTX_new(algorithm) else { throw .libcryptoFailure("EVP_MAC_CTX_new") }
        defer { EVP_MAC_CTX_free(context) }
        // The cipher parameter, in the shim's static C strings (libcrypto only reads them).
        var parameters = [
            OSSL_PARAM_construct_utf8_string(CCRYPTO_PARAM_CIPHER, UnsafeMutablePointer(mutating: CCRYPTO_CIPHER_AES_128_CBC), 0),
            OSSL_PARAM_construct_end(),
        ]
        let initialised = EVP_MAC_init(context, key, key.count, &parameters)
        try BluetoothCryptoError.check(initialised, "EVP_MAC_init(AES-128-CBC)")
        try BluetoothCryptoError.check(EVP_MAC_update(context, message, message.count), "EVP_MAC_update")
        var output = [UInt8](repeating: 0, count: 16)
        var written = 0
        try BluetoothCryptoError.check(EVP_MAC_final(context, &output, &written, output.count), "EVP_MAC_final")
        guard written == 16 else {
            throw .libcrypto(operation: "EVP_MAC_final", detail: "wrote \(written) octets, not 16")
        }
        return output
    }
}
