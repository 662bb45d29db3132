// The security function e: AES-128 of one block, through libcrypto's EVP cipher API.

import CCrypto

/// The security function e (Core v5.4 Vol 3 Part H §2.2.1): AES-128 (FIPS-197) encryption of one block.
///
/// Key, plaintext and result are 16 octets each, most significant octet first as the Core spec
/// and FIPS-197 write them (`key[0]` is the spec's leftmost octet). The cipher is libcrypto's
/// AES-128-ECB with padding off, so one block in gives one block out.
package enum AES128 {
    /// `e(key, block)`: encrypts the 16-octet `block` under the 16-octet `key`.
    package static func encrypt(key: [UInt8], block: [UInt8]) throws(BluetoothCryptoError) -> [UInt8] {
        try requireLengths((key, 16, "key"), (block, 16, "block"))
        guard let context = EVP_CIPHER_CTX_new() else { throw .libcryptoFailure("EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(context) }
        try BluetoothCryptoError.check(EVP_EncryptInit_ex(context, EVP_aes_128_ecb(), nil, key, nil), "EVP_EncryptInit_ex")
        try BluetoothCryptoError.check(EVP_CIPHER_CTX_set_padding(context, 0), "EVP_CIPHER_CTX_set_padding")
        // One block more than the input, as EVP_EncryptUpdate may write up to inl + block size - 1 octets.
        var output = [UInt8](repeating: 0, count: 32)
        var written: Int32 = 0
        try BluetoothCryptoError.check(EVP_EncryptUpdate(context, &output, &written, block, 16), "EVP_EncryptUpdate")
        var finalWritten: Int32 = 0
        let finalResult = output.withUnsafeMutableBufferPointer { buffer in
            EVP_EncryptFinal_ex(context, buffer.baseAddress.map { $0 + Int(written) }, &finalWritten)
        }
        try BluetoothCryptoError.check(finalResult, "EVP_EncryptFinal_ex")
        guard written + finalWritten == 16 else {
            throw .libcrypto(operation: "EVP_EncryptUpdate", detail: "wrote \(written + finalWritten) octets, not 16")
        }
        return Array(output.prefix(16))
    }
}
