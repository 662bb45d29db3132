/// One TLV of an image's TLV areas (bootutil's `struct image_tlv`: type and length, little-endian, then the value).
package struct MCUbootTLV: Sendable, Hashable {
    /// The TLV types MCUboot defines (bootutil's `IMAGE_TLV_*`).
    package struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        package var rawValue: UInt16
        package init(rawValue: UInt16) { self.rawValue = rawValue }

        package static let keyHash = Kind(rawValue: 0x01)
        package static let publicKey = Kind(rawValue: 0x02)
        package static let sha256 = Kind(rawValue: 0x10)
        package static let sha384 = Kind(rawValue: 0x11)
        package static let sha512 = Kind(rawValue: 0x12)
        package static let rsa2048PSS = Kind(rawValue: 0x20)
        package static let ecdsa224 = Kind(rawValue: 0x21)
        package static let ecdsaSignature = Kind(rawValue: 0x22)
        package static let rsa3072PSS = Kind(rawValue: 0x23)
        package static let ed25519 = Kind(rawValue: 0x24)
        package static let dependency = Kind(rawValue: 0x40)
        package static let securityCounter = Kind(rawValue: 0x50)
        package static let bootRecord = Kind(rawValue: 0x60)

        /// The names imgtool's dumpinfo prints.
        static let names: [Kind: String] = [
            .keyHash: "KEYHASH", .publicKey: "PUBKEY", .sha256: "SHA256", .sha384: "SHA384", .sha512: "SHA512",
            .rsa2048PSS: "RSA2048", .ecdsa224: "ECDSA224", .ecdsaSignature: "ECDSASIG", .rsa3072PSS: "RSA3072",
            .ed25519: "ED25519", .dependency: "DEPENDENCY", .securityCounter: "SEC_CNT", .bootRecord: "BOOT_RECORD",
        ]

        /// Whether the TLV is a signature over the image's hash.
        package var isSignature: Bool { [.rsa2048PSS, .ecdsa224, .ecdsaSignature, .rsa3072PSS, .ed25519].contains(self) }

        package var description: String {
            let hex = "0x" + String(rawValue, radix: 16)
            return Self.names[self].map { "\($0) (\(hex))" } ?? hex
        }
    }

    package var kind: Kind
    package var value: [UInt8]
    /// Whether it is in the protected area (covered by the image hash).
    package var isProtected: Bool

    package init(kind: Kind, value: [UInt8], isProtected: Bool) {
        self.kind = kind
        self.value = value
        self.isProtected = isProtected
    }

    /// `IMAGE_TLV_INFO_MAGIC`: the unprotected area's info header.
    package static let infoMagic: UInt16 = 0x6907
    /// `IMAGE_TLV_PROT_INFO_MAGIC`: the protected area's.
    package static let protectedInfoMagic: UInt16 = 0x6908

    /// Reads the TLV area at `offset` of `bytes` (its 4-octet info header: magic and total size, then the TLVs);
    /// returns the TLVs and the offset after the area.
    static func area(in bytes: [UInt8], at offset: Int, protected: Bool) throws(MCUbootImageError) -> ([MCUbootTLV], end: Int) {
        let what = protected ? "the protected TLV area" : "the TLV area"
        guard offset + 4 <= bytes.count else { throw .truncated(what, have: max(0, bytes.count - offset), need: 4) }
        let reader = LittleEndian(bytes)
        let magic = reader.u16(offset)
        let expected = protected ? protectedInfoMagic : infoMagic
        guard magic == expected else { throw .badTLVMagic(area: what, offset: offset, found: magic, expected: expected) }
        let total = Int(reader.u16(offset + 2))
        let end = offset + total
        guard total >= 4 else { throw .tlvOverrun(area: what, offset: offset) }
        guard end <= bytes.count else { throw .truncated(what, have: bytes.count - offset, need: total) }
        var tlvs: [MCUbootTLV] = []
        var at = offset + 4
        while at < end {
            guard at + 4 <= end else { throw .tlvOverrun(area: what, offset: at) }
            let length = Int(reader.u16(at + 2))
            guard at + 4 + length <= end else { throw .tlvOverrun(area: what, offset: at) }
            tlvs.append(MCUbootTLV(kind: Kind(rawValue: reader.u16(at)), value: Array(bytes[(at + 4)..<(at + 4 + length)]), isProtected: protected))
            at += 4 + length
        }
        return (tlvs, end)
    }
}
