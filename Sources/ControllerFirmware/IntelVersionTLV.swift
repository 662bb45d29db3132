/// The TLV form of Intel Read Version (btintel.h's `struct intel_version_tlv`, filled by
/// `btintel_parse_version_tlv`): entries of a type octet, a length octet and that many value octets, values
/// little-endian. Types btintel does not keep are skipped, as it skips them.
package struct IntelVersionTLV: Sendable, Equatable {
    /// The entry types btintel reads (its `INTEL_TLV_*` enumeration, from 0x10).
    package enum Kind: UInt8, Sendable, CaseIterable {
        case cnviTop = 0x10, cnvrTop = 0x11, cnviBT = 0x12, cnvrBT = 0x13
        case deviceRevisionID = 0x16, imageType = 0x1C, timestamp = 0x1D, buildType = 0x1E, buildNumber = 0x1F
        case secureBoot = 0x28, otpLock = 0x2A, apiLock = 0x2B, debugLock = 0x2C, minimumFirmware = 0x2D
        case limitedCCE = 0x2E, sbeType = 0x2F, otpBDAddress = 0x30, gitSHA1 = 0x32, firmwareID = 0x50
    }

    /// `img_type`: which image runs.
    package enum ImageType: UInt8, Sendable { case bootloader = 0x01, intermediate = 0x02, operational = 0x03 }

    package var cnviTop: UInt32 = 0
    package var cnvrTop: UInt32 = 0
    /// Carries the hardware platform (bits 8–15) and variant (bits 16–21).
    package var cnviBT: UInt32 = 0
    package var cnvrBT: UInt32 = 0
    package var deviceRevisionID: UInt16 = 0
    package var imageType: UInt8 = 0
    package var timestamp: UInt16 = 0
    package var buildType: UInt8 = 0
    package var buildNumber: UInt32 = 0
    package var secureBoot: UInt8 = 0
    package var otpLock: UInt8 = 0
    package var apiLock: UInt8 = 0
    package var debugLock: UInt8 = 0
    /// The minimum firmware build (number, calendar week, year − 2000): the bootloader's; equal to the
    /// file's 0xFC0E build, btintel skips the download as already loaded.
    package var minimumFirmware: IntelFirmwareBuild = .init(number: 0, week: 0, year: 0)
    /// Non-zero: the bootloader does not acknowledge every fragment, which btintel refuses.
    package var limitedCCE: UInt8 = 0
    /// The secure boot engine: 0x00 RSA, 0x01 ECDSA.
    package var sbeType: UInt8 = 0
    package var otpBDAddress: [UInt8]?
    package var firmwareID: String?

    package init() {}

    /// Reads the entries after Status; an entry running past the end, or a value shorter than its type
    /// needs, is an error (btintel rejects the first with -EINVAL).
    package init(entries bytes: [UInt8]) throws(FirmwareError) {
        let reader = FirmwareBytes(bytes: bytes, file: IntelVersion.source)
        var position = 0
        while position < bytes.count {
            guard bytes.count - position >= 2 else {
                throw reader.failure("a TLV entry header at offset \(position) runs past the end (\(bytes.count) octets)")
            }
            let type = bytes[position], length = Int(bytes[position + 1])
            let value = position + 2
            guard length <= bytes.count - value else {
                throw reader.failure("the TLV entry of type \(type.hex(2)) is \(length) octets from offset \(value), past the end (\(bytes.count) octets)")
            }
            if let kind = Kind(rawValue: type) {
                try read(kind, FirmwareBytes(bytes: Array(bytes[value..<(value + length)]), file: IntelVersion.source))
            }
            position = value + length
        }
    }

    private mutating func read(_ kind: Kind, _ value: FirmwareBytes) throws(FirmwareError) {
        let name = "the TLV entry \(kind) (type \(kind.rawValue.hex(2)))"
        switch (kind, Self.integers[kind]) {
        case (_, .u8(let field)?): self[keyPath: field] = try value.u8(at: 0, name)
        case (_, .u16(let field)?): self[keyPath: field] = try value.u16(at: 0, name)
        case (_, .u32(let field)?): self[keyPath: field] = try value.u32(at: 0, name)
        case (.minimumFirmware, nil):
            minimumFirmware = IntelFirmwareBuild(number: try value.u8(at: 0, name), week: try value.u8(at: 1, name), year: try value.u8(at: 2, name))
        case (.otpBDAddress, nil): otpBDAddress = Array(try value.slice(at: 0, count: 6, name))
        case (.firmwareID, nil):
            let text = value.bytes.prefix { $0 != 0 }
            firmwareID = text.isEmpty ? nil : String(decoding: text, as: UTF8.self)
        default: break // gitSHA1
        }
    }

    /// An integer entry's field, little-endian and as wide as the field.
    private enum Integer: Sendable {
        case u8(WritableKeyPath<IntelVersionTLV, UInt8> & Sendable)
        case u16(WritableKeyPath<IntelVersionTLV, UInt16> & Sendable)
        case u32(WritableKeyPath<IntelVersionTLV, UInt32> & Sendable)
    }

    /// The integer entries and the fields they fill: the one table `init(entries:)` reads and `entries` writes.
    private static let integers: [Kind: Integer] = [
        .cnviTop: .u32(\.cnviTop), .cnvrTop: .u32(\.cnvrTop), .cnviBT: .u32(\.cnviBT), .cnvrBT: .u32(\.cnvrBT),
        .deviceRevisionID: .u16(\.deviceRevisionID), .imageType: .u8(\.imageType), .timestamp: .u16(\.timestamp),
        .buildType: .u8(\.buildType), .buildNumber: .u32(\.buildNumber), .secureBoot: .u8(\.secureBoot),
        .otpLock: .u8(\.otpLock), .apiLock: .u8(\.apiLock), .debugLock: .u8(\.debugLock),
        .limitedCCE: .u8(\.limitedCCE), .sbeType: .u8(\.sbeType),
    ]

    /// `INTEL_HW_PLATFORM(cnvi_bt)`: 0x37 for every controller btintel supports.
    package var hardwarePlatform: UInt8 { UInt8(truncatingIfNeeded: cnviBT >> 8) }
    /// `INTEL_HW_VARIANT(cnvi_bt)`, e.g. 0x17 (TyP, the AX210).
    package var hardwareVariant: UInt8 { UInt8(truncatingIfNeeded: cnviBT >> 16) & 0x3F }

    /// btintel's `INTEL_CNVX_TOP_PACK_SWAB` of a CNVi/CNVr top: its type (bits 0–11) shifted over its step
    /// (bits 24–27), byte-swapped.
    package static func packedTop(_ top: UInt32) -> UInt16 {
        let packed = UInt16(truncatingIfNeeded: (top & 0xFFF) << 4 | (top >> 24) & 0xF)
        return packed.byteSwapped
    }

    /// The file btintel asks for (`btintel_get_fw_name_tlv`): `intel/ibt-<cnvi>-<cnvr>.<suffix>` of the packed
    /// tops in 4 lowercase hexadecimal digits; Blazar (variant 0x1E and later) adds its firmware ID, or names
    /// the intermediate loader (`-iml`) from the bootloader.
    package func firmwareName(suffix: String) -> String {
        let base = "intel/ibt-\(Self.hex4(Self.packedTop(cnviTop)))-\(Self.hex4(Self.packedTop(cnvrTop)))"
        if hardwareVariant >= 0x1E {
            if imageType == ImageType.bootloader.rawValue { return base + "-iml.\(suffix)" }
            if let firmwareID { return base + "-\(firmwareID).\(suffix)" }
        }
        return base + ".\(suffix)"
    }

    static func hex4(_ value: UInt16) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }

    /// The entries for these values, in btintel's type order (what a controller would answer).
    package var entries: [UInt8] {
        Kind.allCases.flatMap { kind -> [UInt8] in
            guard let value = value(of: kind) else { return [] }
            return [kind.rawValue, UInt8(value.count)] + value
        }
    }

    /// The value octets of `kind`'s entry; nil for an entry not written (no OTP address, and the Git SHA-1
    /// and firmware ID).
    private func value(of kind: Kind) -> [UInt8]? {
        func le(_ value: UInt32, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        switch (kind, Self.integers[kind]) {
        case (_, .u8(let field)?): return [self[keyPath: field]]
        case (_, .u16(let field)?): return le(UInt32(self[keyPath: field]), 2)
        case (_, .u32(let field)?): return le(self[keyPath: field], 4)
        case (.minimumFirmware, nil): return [minimumFirmware.number, minimumFirmware.week, minimumFirmware.year]
        case (.otpBDAddress, nil): return otpBDAddress
        default: return nil
        }
    }
}

/// A firmware build as Intel writes it: number, calendar week, year − 2000.
package struct IntelFirmwareBuild: Sendable, Equatable, CustomStringConvertible {
    package let number: UInt8
    package let week: UInt8
    package let year: UInt8

    package init(number: UInt8, week: UInt8, year: UInt8) {
        self.number = number
        self.week = week
        self.year = year
    }

    /// btintel's "Firmware Version: num-ww.yy".
    package var description: String { "\(number)-\(week).\(year)" }
}
