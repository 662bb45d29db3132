import BluetoothCrypto
import Foundation
import Testing

/// ECDSA P-256 signing through libcrypto, checked by the verifier beside it; keys libcrypto must refuse for it.
/// (That imgtool accepts what it signs is checked on images, in MCUbootImageTests.)
@Suite("Signature private keys")
struct SignaturePrivateKeyTests {
    static let digest = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }

    @Test("A fresh key's signature verifies with its public key, not with another key nor over another digest")
    func signsAndVerifies() throws {
        let key = try SignaturePrivateKey.generateECDSAP256()
        #expect(key.publicKey.algorithm == .ecdsaP256)
        let signature = try key.signECDSA(digest: Self.digest)
        #expect(try key.publicKey.verifiesECDSA(signature: signature, digest: Self.digest))
        var other = Self.digest
        other[31] ^= 0x01
        #expect(try !key.publicKey.verifiesECDSA(signature: signature, digest: other))
        let another = try SignaturePrivateKey.generateECDSAP256()
        #expect(another.publicKey != key.publicKey)
        #expect(try !another.publicKey.verifiesECDSA(signature: signature, digest: Self.digest))
    }

    @Test("The signature is a DER Ecdsa-Sig-Value of at most 72 octets, with a fresh nonce each time")
    func derSignature() throws {
        let key = try SignaturePrivateKey.generateECDSAP256()
        let first = try key.signECDSA(digest: Self.digest), second = try key.signECDSA(digest: Self.digest)
        for signature in [first, second] {
            // SEQUENCE { INTEGER r, INTEGER s } (RFC 5480 §2.2.3), each integer at most 33 octets.
            #expect(signature.count <= 72 && signature.count >= 8)
            #expect(signature[0] == 0x30 && Int(signature[1]) == signature.count - 2)
            #expect(signature[2] == 0x02)
            let rLength = Int(signature[3])
            #expect(rLength <= 33 && signature[4 + rLength] == 0x02 && Int(signature[5 + rLength]) == signature.count - 6 - rLength)
            #expect(try key.publicKey.verifiesECDSA(signature: signature, digest: Self.digest))
        }
        #expect(first != second)
    }

    @Test("A digest of another length, text that is no private key, a public key and an Ed25519 key are refused")
    func refusals() throws {
        let key = try SignaturePrivateKey.generateECDSAP256()
        #expect(throws: BluetoothCryptoError.invalidLength(what: "digest", expected: 32, got: 31)) { try key.signECDSA(digest: Array(Self.digest.dropLast())) }
        #expect(throws: BluetoothCryptoError.self) { try SignaturePrivateKey(pem: "not a key") }
        let publicPEM = SignaturePublicKeyTests.pem(key.publicKey.der)
        #expect(throws: BluetoothCryptoError.self) { try SignaturePrivateKey(pem: publicPEM) }
        // RFC 8032 §7.1 TEST 1's secret key as RFC 8410 §7's PKCS#8 OneAsymmetricKey.
        let ed25519 = hex("302e020100300506032b657004220420") + hex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
        #expect(throws: BluetoothCryptoError.self) { try SignaturePrivateKey(pem: SignaturePublicKeyTests.pem(ed25519, "PRIVATE KEY")) }
    }
}
