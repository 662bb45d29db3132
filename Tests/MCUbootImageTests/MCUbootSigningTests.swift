import Foundation
import MCUbootImage
import Testing

/// Images MCUbootImage signs with a key of `imgtool keygen -t ecdsa-p256` (Fixtures/signing-ecdsa-p256.pem):
/// the TLVs in the order imgtool writes them (its own signed image, Fixtures/signed-ecdsa-p256.dumpinfo.txt), the
/// key hash of the public half `imgtool getpub` printed, and a signature MCUboot's check accepts with that key and
/// no other. (imgtool's own verdict on these images: ImgtoolVerifiesSigningTests.)
@Suite struct MCUbootSigningTests {
    static func text(_ name: String, _ ext: String) throws -> String { try String(contentsOf: ImgtoolDumpinfo.url(name, ext), encoding: .utf8) }
    static func imgtoolKey() throws -> MCUbootSigningKey { try MCUbootSigningKey(pem: text("signing-ecdsa-p256", "pem")) }
    static let body = (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
    static let version = MCUbootVersion(major: 3, minor: 1, revision: 4, build: 15)

    @Test("imgtool's private key gives the public key imgtool getpub printed")
    func readsImgtoolsKey() throws {
        let key = try Self.imgtoolKey()
        #expect(key.publicKey == (try MCUbootPublicKey(pem: Self.text("signing-ecdsa-p256", "pub.pem"))))
        #expect(key.publicKey.signatureKey == .ecdsaP256)
        #expect(throws: MCUbootImageError.self) { try MCUbootSigningKey(pem: Self.text("signing-ecdsa-p256", "pub.pem")) }
    }

    @Test("A signed image has imgtool's TLV order, the unsigned image's hash, and verifies with its key alone")
    func signedImage() throws {
        let key = try Self.imgtoolKey()
        let image = try MCUbootImage.make(version: Self.version, body: Self.body, signingKey: key)
        let unsigned = try MCUbootImage.make(version: Self.version, body: Self.body)
        let imgtools = try ImgtoolDumpinfo("signed-ecdsa-p256").tlvs.filter { !$0.isProtected }.map(\.type)
        #expect(image.tlvs.map(\.kind.rawValue) == imgtools)
        #expect(image.hash == unsigned.hash && image.hashMatches)
        #expect(image.keyHash == key.publicKey.hash)
        #expect(image.signatureKeys == [.ecdsaP256])
        #expect(image.signatureVerdict(with: key.publicKey) == .verified)
        #expect(image.signatureVerdict(with: try MCUbootSignatureVerdictTests.key("ecdsa-p256")) == .noSignatureForKey)
        #expect(unsigned.signatureVerdict(with: key.publicKey) == .noSignatureForKey)
        let fresh = try MCUbootSigningKey.generate()
        #expect(fresh.publicKey != key.publicKey)
        let other = try MCUbootImage.make(version: Self.version, body: Self.body, signingKey: fresh)
        #expect(other.signatureVerdict(with: fresh.publicKey) == .verified)
        #expect(other.signatureVerdict(with: key.publicKey) == .noSignatureForKey)
    }
}
