// Points of P-256 through libcrypto's EC_GROUP and EC_POINT: a public key from a private key,
// and the check that a peer's public key is a point on the curve.

import CCrypto

/// The curve P-256 (FIPS 186, secp256r1) of LE Secure Connections (Core v5.4 Vol 3 Part H §2.3.5.6.1).
/// Coordinates and scalars are 32 octets, most significant first; nothing here outlives a call.
enum P256Curve {
    /// The uncompressed encoding of a point: 0x04 ‖ X ‖ Y (SEC 1 §2.3.3), as libcrypto takes it.
    static func encodedPoint(x: [UInt8], y: [UInt8]) -> [UInt8] {
        [0x04] + x + y
    }

    /// The public key d·G of the private key `d`; `.invalidPrivateKey` unless 1 ≤ d < n.
    static func publicKey(privateKey: [UInt8]) throws(BluetoothCryptoError) -> (x: [UInt8], y: [UInt8]) {
        try requireLength(privateKey, 32, "privateKey")
        guard let group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1) else {
            throw .libcryptoFailure("EC_GROUP_new_by_curve_name(P-256)")
        }
        defer { EC_GROUP_free(group) }
        guard let scalar = BN_bin2bn(privateKey, 32, nil) else { throw .libcryptoFailure("BN_bin2bn") }
        defer { BN_clear_free(scalar) }
        guard let order = EC_GROUP_get0_order(group) else { throw .libcryptoFailure("EC_GROUP_get0_order") }
        guard BN_is_zero(scalar) == 0, BN_cmp(scalar, order) < 0 else { throw .invalidPrivateKey }
        guard let point = EC_POINT_new(group) else { throw .libcryptoFailure("EC_POINT_new") }
        defer { EC_POINT_free(point) }
        try BluetoothCryptoError.check(EC_POINT_mul(group, point, scalar, nil, nil, nil), "EC_POINT_mul")
        var encoded = [UInt8](repeating: 0, count: 65)
        let written = EC_POINT_point2oct(group, point, POINT_CONVERSION_UNCOMPRESSED, &encoded, encoded.count, nil)
        guard written == 65, encoded[0] == 0x04 else {
            throw .libcrypto(operation: "EC_POINT_point2oct", detail: "encoded the public key in \(written) octets, not 65")
        }
        return (Array(encoded[1..<33]), Array(encoded[33..<65]))
    }

    /// Throws `.invalidPublicKey` unless (x, y) is a point on P-256 (each coordinate below p and
    /// y² = x³ − 3x + b): the peer key check of the invalid curve attack defence (§2.3.5.6.1).
    static func validate(x: [UInt8], y: [UInt8]) throws(BluetoothCryptoError) {
        try requireLengths((x, 32, "peerX"), (y, 32, "peerY"))
        guard let group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1) else {
            throw .libcryptoFailure("EC_GROUP_new_by_curve_name(P-256)")
        }
        defer { EC_GROUP_free(group) }
        guard let point = EC_POINT_new(group) else { throw .libcryptoFailure("EC_POINT_new") }
        defer { EC_POINT_free(point) }
        let encoded = encodedPoint(x: x, y: y)
        // EC_POINT_oct2point refuses a coordinate ≥ p and a point off the curve; its error is the answer.
        guard EC_POINT_oct2point(group, point, encoded, encoded.count, nil) == 1,
              EC_POINT_is_on_curve(group, point, nil) == 1 else {
            ERR_clear_error()
            throw .invalidPublicKey
        }
    }
}
