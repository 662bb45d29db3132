/// The 32-octet header MCUboot puts before an image's body (bootutil's `struct image_header`, little-endian).
package struct MCUbootHeader: Sendable, Hashable {
    /// `IMAGE_MAGIC`.
    package static let magic: UInt32 = 0x96F3_B83D
    package static let size = 32

    /// Where the image runs from when it is loaded to RAM (`ih_load_addr`; 0 unless RAM_LOAD).
    package var loadAddress: UInt32
    /// The header's size in the image: the body starts there (`ih_hdr_size`, at least 32; imgtool pads it).
    package var headerSize: Int
    /// The protected TLV area's size, its info header included (`ih_protect_tlv_size`; 0 when there is none).
    package var protectedTLVSize: Int
    /// The body's size (`ih_img_size`).
    package var imageSize: Int
    package var flags: MCUbootImageFlags
    package var version: MCUbootVersion

    /// Reads the header at the start of `bytes`.
    package init(decoding bytes: [UInt8]) throws(MCUbootImageError) {
        guard bytes.count >= Self.size else { throw .truncated("the image header", have: bytes.count, need: Self.size) }
        let reader = LittleEndian(bytes)
        let magic = reader.u32(0)
        guard magic == Self.magic else { throw .notAnImage(magic: magic) }
        loadAddress = reader.u32(4)
        headerSize = Int(reader.u16(8))
        protectedTLVSize = Int(reader.u16(10))
        imageSize = Int(reader.u32(12))
        flags = MCUbootImageFlags(rawValue: reader.u32(16))
        version = MCUbootVersion(major: bytes[20], minor: bytes[21], revision: reader.u16(22), build: reader.u32(24))
        guard headerSize >= Self.size else { throw .headerSizeTooSmall(headerSize) }
    }
}

/// `ih_flags`.
package struct MCUbootImageFlags: OptionSet, Sendable, Hashable {
    package var rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    package static let positionIndependent = Self(rawValue: 0x01)
    package static let encryptedAES128 = Self(rawValue: 0x04)
    package static let encryptedAES256 = Self(rawValue: 0x08)
    package static let nonBootable = Self(rawValue: 0x10)
    package static let ramLoad = Self(rawValue: 0x20)
    package static let romFixed = Self(rawValue: 0x100)
}

/// `struct image_version`: major.minor.revision+build.
package struct MCUbootVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    package var major: UInt8
    package var minor: UInt8
    package var revision: UInt16
    package var build: UInt32

    package init(major: UInt8, minor: UInt8, revision: UInt16, build: UInt32) {
        self.major = major
        self.minor = minor
        self.revision = revision
        self.build = build
    }

    /// As imgtool writes it: "1.2.3+4".
    package var description: String { "\(major).\(minor).\(revision)+\(build)" }

    /// As Zephyr's image management reports it in an image state response: "1.2.3", with ".4" when the build
    /// number is not 0.
    package var mcumgrString: String { "\(major).\(minor).\(revision)" + (build == 0 ? "" : ".\(build)") }

    package static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.major, lhs.minor, lhs.revision, lhs.build) < (rhs.major, rhs.minor, rhs.revision, rhs.build)
    }
}

/// Little-endian fields of a byte array whose length the caller checked.
struct LittleEndian {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func u16(_ offset: Int) -> UInt16 { UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8 }
    func u32(_ offset: Int) -> UInt32 { UInt32(u16(offset)) | UInt32(u16(offset + 2)) << 16 }
}
