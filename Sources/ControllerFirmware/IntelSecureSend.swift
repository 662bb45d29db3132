/// An Intel bootloader firmware file (`intel/ibt-*.sfi`) as Linux's btintel sends it with Secure Send (vendor
/// opcode 0xFC09, `btintel_secure_send`): the RSA headers — the CSS header (128 octets at 0), the public key
/// (256 at 128) and the signature (256 at 388), 644 octets with the exponent — then, in the files of the TLV
/// generations (TyP, variant 0x17, and later), an ECDSA header of 320 octets at 644 (its CSS header of 128,
/// public key of 96 at 772, signature of 96 at 868; `btintel_sfi_ecdsa_header_secure_send`), then the command
/// buffer: HCI commands (opcode, length, parameters) sent as data in chunks that each end on a 4-octet
/// boundary (`btintel_download_firmware_payload`). Every part goes in Secure Send fragments of at most 252
/// octets after the fragment type.
package struct IntelSFI: Sendable {
    /// Secure Send's fragment type: its first parameter octet.
    package enum FragmentType: UInt8, Sendable, CustomStringConvertible {
        case cssHeader = 0x00, data = 0x01, signature = 0x02, publicKey = 0x03

        package var description: String {
            switch self {
            case .cssHeader: "CSS header"
            case .data: "data"
            case .signature: "signature"
            case .publicKey: "public key"
            }
        }
    }

    /// The secure boot engine the bootloader reports (`sbe_type`), which picks the headers sent.
    package enum Engine: UInt8, Sendable { case rsa = 0x00, ecdsa = 0x01 }

    package static let fragmentLength = 252
    package static let rsaHeaderLength = 644
    package static let ecdsaHeaderLength = 320
    /// The CSS header version (at octet 8 of a CSS header) of the RSA and of the ECDSA header.
    package static let rsaCSSVersion: UInt32 = 0x0001_0000
    package static let ecdsaCSSVersion: UInt32 = 0x0002_0000
    /// Intel Write Boot Params: its first parameter is the boot address Intel Reset takes.
    package static let writeBootParamsOpcode: UInt16 = 0xFC0E

    package let file: String
    package let bytes: [UInt8]
    /// Whether an ECDSA header follows the RSA header (the TLV generations' layout).
    package let hasECDSAHeader: Bool
    /// The command buffer's chunks, each ending on a 4-octet boundary.
    package let chunks: [Range<Int>]
    /// The first Intel Write Boot Params in the file, found as btintel finds it (`btintel_firmware_version`):
    /// its boot address and firmware build; nil when there is none (btintel then boots address 0).
    package let bootParams: (address: UInt32, build: IntelFirmwareBuild)?

    package init(bytes: [UInt8], file: String) throws(FirmwareError) {
        let reader = FirmwareBytes(bytes: bytes, file: file)
        guard bytes.count >= Self.rsaHeaderLength else {
            throw reader.failure("truncated .sfi: \(bytes.count) octets, shorter than its \(Self.rsaHeaderLength)-octet RSA header")
        }
        let version = try reader.u32(at: 8, "the CSS header version")
        guard bytes[0] == 0x06, version == Self.rsaCSSVersion else {
            throw reader.failure("not an Intel .sfi: expected a CSS header (type 0x06, version 0x00010000), found type \(bytes[0].hex(2)) version \(version.hex(8))")
        }
        hasECDSAHeader = bytes.count >= Self.rsaHeaderLength + Self.ecdsaHeaderLength && bytes[Self.rsaHeaderLength] == 0x06
            && (try? reader.u32(at: Self.rsaHeaderLength + 8, "")) == Self.ecdsaCSSVersion
        let start = Self.rsaHeaderLength + (hasECDSAHeader ? Self.ecdsaHeaderLength : 0)
        var chunks: [Range<Int>] = []
        var chunkStart = start, position = start
        while position < bytes.count {
            guard bytes.count - position >= 3 else {
                throw reader.failure("truncated .sfi: the command at offset \(position) has \(bytes.count - position) of its 3 header octets")
            }
            let length = Int(bytes[position + 2])
            guard length <= bytes.count - position - 3 else {
                let opcode = UInt16(bytes[position]) | UInt16(bytes[position + 1]) << 8
                throw reader.failure("truncated .sfi: the command \(opcode.hex(4)) at offset \(position) has \(length) parameter octets, the file ends \(bytes.count - position - 3) after its header")
            }
            position += 3 + length
            if (position - chunkStart) % 4 == 0 {
                chunks.append(chunkStart..<position)
                chunkStart = position
            }
        }
        guard chunkStart == bytes.count else {
            throw reader.failure("the command buffer ends \(bytes.count - chunkStart) octets past its last 4-octet boundary (offset \(chunkStart)): truncated?")
        }
        guard !chunks.isEmpty else { throw reader.failure("no command buffer after the \(start)-octet headers") }
        self.file = file
        self.bytes = bytes
        self.chunks = chunks
        bootParams = Self.bootParams(bytes)
    }

    /// btintel's walk for Intel Write Boot Params: commands from the file's first octet (headers included,
    /// as it walks them), the first of opcode 0xFC0E.
    static func bootParams(_ bytes: [UInt8]) -> (address: UInt32, build: IntelFirmwareBuild)? {
        var position = 0
        while bytes.count - position >= 3 {
            let opcode = UInt16(bytes[position]) | UInt16(bytes[position + 1]) << 8
            let length = Int(bytes[position + 2])
            if opcode == writeBootParamsOpcode {
                guard bytes.count - position >= 10 else { return nil }
                let address = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[position + 3 + $1]) << (8 * $1) }
                return (address, IntelFirmwareBuild(number: bytes[position + 7], week: bytes[position + 8], year: bytes[position + 9]))
            }
            position += 3 + length
        }
        return nil
    }

    /// The headers sent for `engine`: type and range, in btintel's order (CSS header, public key, signature).
    package func headers(engine: Engine) throws(FirmwareError) -> [(type: FragmentType, range: Range<Int>)] {
        switch engine {
        case .rsa:
            return [(.cssHeader, 0..<128), (.publicKey, 128..<384), (.signature, 388..<644)]
        case .ecdsa:
            guard hasECDSAHeader else {
                throw FirmwareError(file: file, problem: "no ECDSA header at offset 644 (a CSS header of version 0x00020000), which a bootloader of secure boot engine ECDSA (0x01) needs")
            }
            return [(.cssHeader, 644..<772), (.publicKey, 772..<868), (.signature, 868..<964)]
        }
    }

    /// Every Secure Send fragment for `engine`, in order: the headers, then the command buffer's chunks, each
    /// cut into pieces of at most 252 octets.
    package func fragments(engine: Engine) throws(FirmwareError) -> [IntelSecureSendFragment] {
        let parts = try headers(engine: engine) + chunks.map { (type: FragmentType.data, range: $0) }
        return parts.flatMap { part in
            stride(from: part.range.lowerBound, to: part.range.upperBound, by: Self.fragmentLength).map {
                IntelSecureSendFragment(type: part.type, range: $0..<min($0 + Self.fragmentLength, part.range.upperBound))
            }
        }
    }

    /// The exact octets sent for `engine`: each fragment's Secure Send parameters (type, then data), in order.
    package func sent(engine: Engine) throws(FirmwareError) -> [UInt8] {
        try fragments(engine: engine).flatMap { [$0.type.rawValue] + bytes[$0.range] }
    }
}

/// One Secure Send command: its fragment type and the file's octets it carries.
package struct IntelSecureSendFragment: Sendable, Equatable {
    package let type: IntelSFI.FragmentType
    package let range: Range<Int>
}
