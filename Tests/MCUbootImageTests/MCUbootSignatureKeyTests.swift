import MCUbootImage
import Testing

/// Which kind of key signed an image, against images imgtool signed with keys it made of each kind
/// (scripts/peers/mcuboot-images: `imgtool keygen -t ecdsa-p256`, `-t ed25519`, `-t ecdsa-p384`).
@Suite struct MCUbootSignatureKeyTests {
    @Test("The signature TLV names the kind of key imgtool signed with; an unsigned image has none",
          arguments: [("unsigned", []), ("signed-ecdsa-p256", [MCUbootSignatureKey.ecdsaP256]), ("signed-ed25519", [.ed25519])])
    func keyKinds(_ name: String, _ keys: [MCUbootSignatureKey]) throws {
        let image = try MCUbootImage(try ImgtoolDumpinfo.bytes(name))
        #expect(image.signatureKeys == keys)
    }

    @Test("ECDSA signatures (one TLV type for every curve) tell P-256 from P-384 by their size, as imgtool made them",
          arguments: [("signed-ecdsa-p256", MCUbootSignatureKey.ecdsaP256), ("signed-ecdsa-p384", .ecdsaP384)])
    func ecdsaCurves(_ name: String, _ key: MCUbootSignatureKey) throws {
        // Read from imgtool's dumpinfo: MCUbootImage reads images hashed with SHA-256 only (a P-384 one is SHA-384).
        let signature = try #require(try ImgtoolDumpinfo(name).tlvs.first { $0.type == MCUbootTLV.Kind.ecdsaSignature.rawValue })
        #expect(MCUbootSignatureKey(MCUbootTLV(kind: .ecdsaSignature, value: signature.data, isProtected: false)) == key)
    }

    @Test("A TLV that is no signature, or a signature of no size its type allows, names no key")
    func notSignatures() throws {
        let image = try MCUbootImage(try ImgtoolDumpinfo.bytes("signed-ed25519"))
        let keyHash = try #require(image.tlvs.first { $0.kind == .keyHash })
        #expect(MCUbootSignatureKey(keyHash) == nil)
        let signature = try #require(image.signatures.first)
        #expect(MCUbootSignatureKey(MCUbootTLV(kind: .ed25519, value: Array(signature.value.dropLast()), isProtected: false)) == nil)
        #expect(MCUbootSignatureKey(MCUbootTLV(kind: .ecdsaSignature, value: Array(repeating: 0x30, count: 105), isProtected: false)) == nil)
    }
}
