import BluetoothCrypto

/// An image as MCUboot boots it and imgtool makes it: the header, the body, the protected TLV area (when the header
/// gives it a size) and the TLV area, with the SHA-256 TLV checked against the hash of header, body and protected
/// TLVs. The bytes after the TLV area (imgtool's padding to the slot size, the trailer) are kept, not read.
package struct MCUbootImage: Sendable, Hashable {
    /// The whole file, as it is uploaded.
    package let bytes: [UInt8]
    package let header: MCUbootHeader
    /// The protected TLVs then the others, in the order the file holds them.
    package let tlvs: [MCUbootTLV]
    /// The SHA-256 TLV's value: what MCUmgr's image state reports as the image's hash.
    package let hash: [UInt8]
    /// Whether `hash` is the SHA-256 of the header, body and protected TLVs (always, unless read without the check).
    package let hashMatches: Bool

    /// Reads and checks `bytes`: a foreign or truncated file, a TLV area that runs past its size, or (when
    /// `checkingHash`, the default) a hash that does not match is an `MCUbootImageError`. A device's image
    /// manager reads the hash TLV without the check, as Zephyr's does; MCUboot checks it at boot.
    package init(_ bytes: [UInt8], checkingHash: Bool = true) throws(MCUbootImageError) {
        let header = try MCUbootHeader(decoding: bytes)
        let bodyEnd = header.headerSize + header.imageSize
        guard bodyEnd <= bytes.count else { throw .truncated("the image body", have: max(0, bytes.count - header.headerSize), need: header.imageSize) }
        var tlvs: [MCUbootTLV] = []
        var offset = bodyEnd
        if header.protectedTLVSize > 0 {
            let (protected, end) = try MCUbootTLV.area(in: bytes, at: offset, protected: true)
            guard end - offset == header.protectedTLVSize else {
                throw .protectedSizeMismatch(header: header.protectedTLVSize, area: end - offset)
            }
            tlvs += protected
            offset = end
        }
        tlvs += try MCUbootTLV.area(in: bytes, at: offset, protected: false).0
        let hashes = tlvs.filter { $0.kind == .sha256 && !$0.isProtected }
        guard let stated = hashes.first else { throw .noHash(kinds: tlvs.map(\.kind)) }
        guard hashes.count == 1, stated.value.count == 32 else { throw .badHashTLV(count: hashes.count, length: stated.value.count) }
        let computed: [UInt8]
        do {
            computed = try SHA256.digest(Array(bytes[..<(bodyEnd + header.protectedTLVSize)]))
        } catch {
            throw .crypto(error.description)
        }
        guard computed == stated.value || !checkingHash else { throw .hashMismatch(stated: stated.value, computed: computed) }
        self.bytes = bytes
        self.hashMatches = computed == stated.value
        self.header = header
        self.tlvs = tlvs
        self.hash = stated.value
    }

    /// The image's version.
    package var version: MCUbootVersion { header.version }

    /// The signatures' TLVs (none for an unsigned image). Verifying one takes the key MCUboot was built with
    /// (`signatureVerdict(with:)`).
    package var signatures: [MCUbootTLV] { tlvs.filter(\.kind.isSignature) }

    /// The key hash TLV's value: the SHA-256 of the public key the image is signed with.
    package var keyHash: [UInt8]? { tlvs.first { $0.kind == .keyHash }?.value }
}

/// Why a file is not an MCUboot image we upload.
package enum MCUbootImageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file ends inside `what`.
    case truncated(String, have: Int, need: Int)
    /// The first four octets are not IMAGE_MAGIC.
    case notAnImage(magic: UInt32)
    case headerSizeTooSmall(Int)
    case badTLVMagic(area: String, offset: Int, found: UInt16, expected: UInt16)
    /// A TLV runs past its area's end (or the area is shorter than its info header).
    case tlvOverrun(area: String, offset: Int)
    case protectedSizeMismatch(header: Int, area: Int)
    case noHash(kinds: [MCUbootTLV.Kind])
    case badHashTLV(count: Int, length: Int)
    /// The SHA-256 TLV does not match the hash of the header, body and protected TLVs.
    case hashMismatch(stated: [UInt8], computed: [UInt8])
    case crypto(String)
    /// A signing key MCUboot is given is not a PEM ECDSA P-256 or Ed25519 key.
    case badKey(String)
    /// libcrypto failed to sign an image's hash.
    case cannotSign(String)

    package var description: String {
        switch self {
        case .truncated(let what, let have, let need): "MCUboot image: file ends inside \(what) (\(have) of \(need) octets)"
        case .notAnImage(let magic): "not an MCUboot image: magic 0x\(String(magic, radix: 16)), not 0x96f3b83d"
        case .headerSizeTooSmall(let size): "MCUboot image: header size \(size) is below 32"
        case .badTLVMagic(let area, let offset, let found, let expected):
            "MCUboot image: \(area) at offset \(offset) has magic 0x\(String(found, radix: 16)), not 0x\(String(expected, radix: 16))"
        case .tlvOverrun(let area, let offset): "MCUboot image: a TLV at offset \(offset) runs past the end of \(area)"
        case .protectedSizeMismatch(let header, let area): "MCUboot image: the header gives the protected TLVs \(header) octets, the area has \(area)"
        case .noHash(let kinds): "MCUboot image: no SHA256 TLV (TLVs: \(kinds.map(\.description).joined(separator: ", ")))"
        case .badHashTLV(let count, let length): "MCUboot image: \(count) SHA256 TLVs, the first of \(length) octets (one of 32 expected)"
        case .hashMismatch(let stated, let computed): "MCUboot image: SHA256 TLV \(hex(stated)) does not match the image's hash \(hex(computed))"
        case .crypto(let failure): "MCUboot image: cannot hash: \(failure)"
        case .badKey(let failure): "MCUboot signing key: \(failure)"
        case .cannotSign(let failure): "MCUboot image: cannot sign: \(failure)"
        }
    }
}

/// Lowercase hexadecimal, as imgtool and sha256sum print digests.
func hex(_ bytes: [UInt8]) -> String { bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }
