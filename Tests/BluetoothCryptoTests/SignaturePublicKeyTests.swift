import BluetoothCrypto
import Foundation
import Testing

/// Ed25519 verification against RFC 8032 §7.1's TEST 2, with the key as PEM (RFC 8410's SubjectPublicKeyInfo:
/// the fixed algorithm header 302a300506032b6570032100, then the 32-octet key); keys libcrypto must refuse.
/// (ECDSA P-256 is checked on imgtool's images, in MCUbootImageTests.)
@Suite("Signature public keys")
struct SignaturePublicKeyTests {
    static let rfc8032Test2Key = hex("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c")
    static let rfc8032Test2Signature = hex("""
        92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da
        085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00
        """)

    static func pem(_ der: [UInt8], _ label: String = "PUBLIC KEY") -> String {
        "-----BEGIN \(label)-----\n\(Data(der).base64EncodedString(options: .lineLength64Characters))\n-----END \(label)-----\n"
    }

    @Test("RFC 8032 TEST 2 verifies; a flipped signature octet or another message does not")
    func ed25519Vector() throws {
        let der = hex("302a300506032b6570032100") + Self.rfc8032Test2Key
        let key = try SignaturePublicKey(pem: Self.pem(der))
        #expect(key.algorithm == .ed25519)
        #expect(key.der == der)
        #expect(try key.verifiesEd25519(signature: Self.rfc8032Test2Signature, message: [0x72]))
        var flipped = Self.rfc8032Test2Signature
        flipped[5] ^= 0x01
        #expect(try !key.verifiesEd25519(signature: flipped, message: [0x72]))
        #expect(try !key.verifiesEd25519(signature: Self.rfc8032Test2Signature, message: [0x73]))
        #expect(try !key.verifiesEd25519(signature: Array(Self.rfc8032Test2Signature.dropLast()), message: [0x72]))
        #expect(throws: BluetoothCryptoError.self) { try key.verifiesECDSA(signature: [], digest: Array(repeating: 0, count: 32)) }
    }

    @Test("Text that is no PEM key, or a truncated key, is refused with a reason")
    func notKeys() {
        #expect(throws: BluetoothCryptoError.self) { try SignaturePublicKey(pem: "not a key") }
        let truncated = hex("302a300506032b6570032100") + Self.rfc8032Test2Key.dropLast()
        #expect(throws: BluetoothCryptoError.self) { try SignaturePublicKey(pem: Self.pem(truncated)) }
    }
}
