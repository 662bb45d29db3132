import BluetoothCrypto

extension MCUbootImage {
    /// An image of `body` as `imgtool create --pad-header --header-size 0x200` makes one: the header (no flags,
    /// load address 0, padded with 0xff), the body, and a TLV area holding the SHA-256 of header and body. With
    /// `signingKey`, signed as `imgtool sign -k KEY` signs it: after the hash TLV, the key hash TLV (the SHA-256 of
    /// the public key's DER) and the ECDSA signature TLV (a DER signature of the hash). For a simulated device's
    /// images and a test bench's updates; a product's real updates are imgtool's.
    package static func make(version: MCUbootVersion, body: [UInt8], headerSize: Int = 0x200,
                            signingKey: MCUbootSigningKey? = nil) throws(MCUbootImageError) -> MCUbootImage {
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }
        func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        var bytes = le32(MCUbootHeader.magic) + le32(0) + le16(headerSize) + le16(0) + le32(UInt32(body.count)) + le32(0)
        bytes += [version.major, version.minor] + le16(Int(version.revision)) + le32(version.build) + le32(0)
        // The header's padding is erased flash (0xff), as imgtool writes it by default (--erased-val).
        bytes += [UInt8](repeating: 0xFF, count: max(0, headerSize - bytes.count)) + body
        let hash: [UInt8]
        do {
            hash = try SHA256.digest(bytes)
        } catch {
            throw .crypto(error.description)
        }
        var tlvs = [(MCUbootTLV.Kind.sha256, hash)]
        if let signingKey {
            do {
                tlvs += [(.keyHash, signingKey.publicKey.hash), (.ecdsaSignature, try signingKey.key.signECDSA(digest: hash))]
            } catch {
                throw .cannotSign(error.description)
            }
        }
        let area = tlvs.flatMap { kind, value in le16(Int(kind.rawValue)) + le16(value.count) + value }
        bytes += le16(Int(MCUbootTLV.infoMagic)) + le16(4 + area.count) + area
        return try MCUbootImage(bytes)
    }
}
