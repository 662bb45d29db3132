// SHA-256 through libcrypto's EVP digest API: the fingerprint of a firmware download (`hil firmware inspect`).

import CCrypto

/// SHA-256 (FIPS 180-4) of a byte string, by libcrypto.
package enum SHA256 {
    /// The 32-octet digest of `bytes`.
    package static func digest(_ bytes: [UInt8]) throws(BluetoothCryptoError) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var written: UInt32 = 0
        let result = bytes.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &digest, &written, EVP_sha256(), nil)
        }
        try BluetoothCryptoError.check(result, "EVP_Digest")
        guard written == 32 else { throw .libcrypto(operation: "EVP_Digest", detail: "wrote \(written) octets, not 32") }
        return digest
    }

    /// The digest in lowercase hexadecimal, as `sha256sum` prints it.
    package static func hexDigest(_ bytes: [UInt8]) throws(BluetoothCryptoError) -> String {
        try digest(bytes).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
