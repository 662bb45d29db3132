import BluetoothCrypto

extension MCUbootImage {
    /// An unsigned image of `body` as `imgtool create --pad-header --header-size 0x200` makes one: the header
    /// (no flags, load address 0, padded with 0xff), the body, and a TLV area holding the SHA-256 of header and body. For a simulated
    /// device's factory image; real updates are imgtool's.
    package static func make(version: MCUbootVersion, body: [UInt8], headerSize: Int = 0x200) throws(MCUbootImageError) -> MCUbootImage {
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
        bytes += le16(Int(MCUbootTLV.infoMagic)) + le16(4 + 4 + hash.count) + le16(Int(MCUbootTLV.Kind.sha256.rawValue)) + le16(hash.count) + hash
        return try MCUbootImage(bytes)
    }
}
