// An LE Secure Connections key pair on P-256, held as bytes.

/// An LE Secure Connections key pair (Core v5.4 Vol 3 Part H §2.3.5.6.1): a P-256 private key and
/// its public key (PKa or PKb of the Pairing Public Key PDU, §3.5.6).
///
/// All values are 32 octets, most significant octet first as the Core spec writes them; the Pairing
/// Public Key PDU carries each coordinate least significant octet first, which is the caller's to
/// reverse. The value holds only these bytes: libcrypto keys are made for the length of a call.
package struct P256KeyPair: Sendable, Hashable {
    /// The private key d, 1 ≤ d < n.
    package let privateKey: [UInt8]
    /// The X coordinate of the public key d·G.
    package let publicKeyX: [UInt8]
    /// The Y coordinate of the public key d·G.
    package let publicKeyY: [UInt8]

    /// A fresh random key pair from libcrypto's P-256 key generator.
    package init() throws(BluetoothCryptoError) {
        try self.init(privateKey: P256PKey.generatePrivateKey())
    }

    /// The key pair of a given private key (32 octets): for the spec's sample data and debug key.
    /// Throws `.invalidLength` for another length and `.invalidPrivateKey` unless 1 ≤ d < n.
    package init(privateKey: [UInt8]) throws(BluetoothCryptoError) {
        let publicKey = try P256Curve.publicKey(privateKey: privateKey)
        self.privateKey = privateKey
        publicKeyX = publicKey.x
        publicKeyY = publicKey.y
    }

    /// The debug key pair of Core v5.4 Vol 3 Part H §2.3.5.6.1, private key
    /// 3f49f6d4 a3c55f38 74c9b3e3 d2103f50 4aff607b eb40b799 5899b8a6 cd3c1abd. A pairing that uses
    /// it has no secrecy: a sniffer with the debug private key follows it.
    package static func debugKeyPair() throws(BluetoothCryptoError) -> P256KeyPair {
        try P256KeyPair(privateKey: [
            0x3F, 0x49, 0xF6, 0xD4, 0xA3, 0xC5, 0x5F, 0x38, 0x74, 0xC9, 0xB3, 0xE3, 0xD2, 0x10, 0x3F, 0x50,
            0x4A, 0xFF, 0x60, 0x7B, 0xEB, 0x40, 0xB7, 0x99, 0x58, 0x99, 0xB8, 0xA6, 0xCD, 0x3C, 0x1A, 0xBD,
        ])
    }
}
