/// The kind of key an image's signature TLV was made with, as MCUboot's bootutil tells them apart: by the TLV's
/// type (`IMAGE_TLV_ECDSA224`, `IMAGE_TLV_ECDSA_SIG`, `IMAGE_TLV_ED25519`, `IMAGE_TLV_RSA2048_PSS`,
/// `IMAGE_TLV_RSA3072_PSS`) and, for `IMAGE_TLV_ECDSA_SIG`, by the size of the DER signature, which tells the curve:
/// a P-256 signature's r and s take at most 33 octets each (72 in all, with the SEQUENCE and INTEGER heads), a
/// P-384 one's at most 49 (104).
package enum MCUbootSignatureKey: Sendable, Hashable, CustomStringConvertible {
    case ecdsaP224, ecdsaP256, ecdsaP384, ed25519, rsa2048, rsa3072

    /// The key kind `tlv` names; nil for a TLV that is no signature, or an ECDSA signature of no curve's size.
    package init?(_ tlv: MCUbootTLV) {
        switch tlv.kind {
        case .ecdsa224: self = .ecdsaP224
        case .ecdsaSignature:
            guard tlv.value.count >= 8 else { return nil }
            if tlv.value.count <= 72 {
                self = .ecdsaP256
            } else if tlv.value.count <= 104 {
                self = .ecdsaP384
            } else {
                return nil
            }
        case .ed25519:
            guard tlv.value.count == 64 else { return nil }
            self = .ed25519
        case .rsa2048PSS: self = .rsa2048
        case .rsa3072PSS: self = .rsa3072
        default: return nil
        }
    }

    /// The name MCUboot's and imgtool's documentation give the key type.
    package var description: String {
        switch self {
        case .ecdsaP224: "ECDSA P-224"
        case .ecdsaP256: "ECDSA P-256"
        case .ecdsaP384: "ECDSA P-384"
        case .ed25519: "Ed25519"
        case .rsa2048: "RSA-2048 PSS"
        case .rsa3072: "RSA-3072 PSS"
        }
    }
}

extension MCUbootImage {
    /// The kinds of key the image's signature TLVs were made with (empty for an unsigned image; a signature TLV of
    /// no size its type allows is left out). Not verified: that takes the public key.
    package var signatureKeys: [MCUbootSignatureKey] { signatures.compactMap(MCUbootSignatureKey.init) }
}
