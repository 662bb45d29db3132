/// What MCUboot's image validation (bootutil_img_validate) concludes about an image's signature, given the key it
/// was built with.
package enum MCUbootSignatureVerdict: Sendable, Hashable, CustomStringConvertible {
    /// A signature TLV after the key hash TLV naming the key verifies over the image's hash.
    case verified
    /// The SHA-256 TLV does not match the image: MCUboot refuses it before any signature.
    case hashMismatch
    /// No key hash TLV names the key (an unsigned image, or one signed with another key): no signature is checked,
    /// and MCUboot refuses the image (its `valid_signature` stays false).
    case noSignatureForKey
    /// The key is named but its signature does not verify over the hash.
    case badSignature

    package var description: String {
        switch self {
        case .verified: "signature verified"
        case .hashMismatch: "the SHA256 TLV does not match the image"
        case .noSignatureForKey: "no signature for the key"
        case .badSignature: "the signature does not verify"
        }
    }
}

extension MCUbootImage {
    /// Checks the image's signature as MCUboot's bootutil_img_validate does with `key`: the hash first; then, in
    /// the unprotected TLV area's order, a key hash TLV that names `key` arms the check of the signature TLVs of
    /// its kind that follow (ECDSA's DER signature over the 32-octet hash, Ed25519's over the hash as the message,
    /// as imgtool signs them); the image is accepted if one verifies. A key embedded as a PUBKEY TLV (MCUboot's
    /// `MCUBOOT_HW_KEY`) is not read.
    package func signatureVerdict(with key: MCUbootPublicKey) -> MCUbootSignatureVerdict {
        guard hashMatches else { return .hashMismatch }
        var keyNamed = false
        var badSignature = false
        for tlv in tlvs where !tlv.isProtected {
            if tlv.kind == .keyHash {
                keyNamed = tlv.value == key.hash
                continue
            }
            guard keyNamed, tlv.kind.isSignature, MCUbootSignatureKey(tlv) == key.signatureKey else { continue }
            let verifies: Bool
            switch key.signatureKey {
            case .ed25519: verifies = (try? key.key.verifiesEd25519(signature: tlv.value, message: hash)) ?? false
            default: verifies = (try? key.key.verifiesECDSA(signature: tlv.value, digest: hash)) ?? false
            }
            if verifies { return .verified }
            badSignature = true
        }
        return badSignature ? .badSignature : .noSignatureForKey
    }
}
