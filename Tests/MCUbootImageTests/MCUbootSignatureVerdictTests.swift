import Foundation
import MCUbootImage
import Testing

/// Signature checks on images imgtool signed (scripts/peers/mcuboot-images), against `imgtool verify -k KEY`'s
/// verdict on the same image and key (Fixtures/IMAGE.verify-KEY.txt): it accepts ("Image was correctly validated")
/// exactly where MCUboot's check here verifies.
@Suite struct MCUbootSignatureVerdictTests {
    static func key(_ name: String) throws -> MCUbootPublicKey {
        try MCUbootPublicKey(pem: String(contentsOf: ImgtoolDumpinfo.url(name, "pub.pem"), encoding: .utf8))
    }

    static func imgtoolAccepts(_ image: String, _ key: String) throws -> Bool {
        let text = try String(contentsOf: ImgtoolDumpinfo.url(image, "verify-\(key).txt"), encoding: .utf8)
        return text.hasPrefix("Image was correctly validated") && !text.contains("exit status")
    }

    @Test("The verdict agrees with imgtool verify's on each image and key",
          arguments: [("signed-ecdsa-p256", "ecdsa-p256", MCUbootSignatureVerdict.verified),
                      ("signed-ecdsa-p256", "other-ecdsa-p256", .noSignatureForKey),
                      ("signed-ecdsa-p256-other-key", "other-ecdsa-p256", .verified),
                      ("signed-ecdsa-p256-other-key", "ecdsa-p256", .noSignatureForKey),
                      ("signed-ecdsa-p256-flipped", "ecdsa-p256", .badSignature),
                      ("signed-ed25519", "ed25519", .verified),
                      ("signed-ed25519", "ecdsa-p256", .noSignatureForKey)])
    func verdicts(_ image: String, _ key: String, _ verdict: MCUbootSignatureVerdict) throws {
        let parsed = try MCUbootImage(try ImgtoolDumpinfo.bytes(image))
        let actual = parsed.signatureVerdict(with: try Self.key(key))
        #expect(actual == verdict)
        #expect((actual == .verified) == (try Self.imgtoolAccepts(image, key)))
    }

    @Test("A key's hash is the key hash TLV imgtool wrote into the images it signed")
    func keyHash() throws {
        for (image, key) in [("signed-ecdsa-p256", "ecdsa-p256"), ("signed-ed25519", "ed25519")] {
            let tlv = try #require(try ImgtoolDumpinfo(image).tlvs.first { $0.type == MCUbootTLV.Kind.keyHash.rawValue })
            #expect(try Self.key(key).hash == tlv.data)
        }
        #expect(try Self.key("ecdsa-p256").signatureKey == .ecdsaP256)
        #expect(try Self.key("ed25519").signatureKey == .ed25519)
    }

    @Test("Any flipped octet of the ECDSA signature, or of the body, is refused; an unsigned image has none to check")
    func flips() throws {
        let bytes = try ImgtoolDumpinfo.bytes("signed-ecdsa-p256")
        let image = try MCUbootImage(bytes)
        let key = try Self.key("ecdsa-p256")
        let signature = try #require(image.signatures.first)
        let start = try #require(bytes.indices.last { Array(bytes[$0...].prefix(signature.value.count)) == signature.value })
        for offset in [start, start + 10, start + signature.value.count / 2, bytes.count - 1] {
            var flipped = bytes
            flipped[offset] ^= 0x80
            #expect(try MCUbootImage(flipped).signatureVerdict(with: key) == .badSignature, "octet \(offset) flipped")
        }
        var body = bytes
        body[image.header.headerSize + 7] ^= 0x01
        #expect(try MCUbootImage(body, checkingHash: false).signatureVerdict(with: key) == .hashMismatch)
        #expect(try MCUbootImage(try ImgtoolDumpinfo.bytes("unsigned")).signatureVerdict(with: key) == .noSignatureForKey)
    }

    @Test("A PEM that is no key is refused naming the signing key")
    func badKey() {
        #expect(throws: MCUbootImageError.self) { try MCUbootPublicKey(pem: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n") }
    }
}
