/// What a Realtek controller is sent: the patch with the config appended, in Download commands (vendor
/// opcode 0xFC20) of an index octet and up to 252 octets each, numbered as btrtl numbers them
/// (`rtl_download_firmware`): 0, 1, … 0x7F, then 1 … 0x7F again (never 0 after the first), bit 7 set on the
/// last. btrtl sends `length / 252 + 1` fragments, so a payload of a whole number of fragments ends in an empty one.
package struct RealtekDownload: Sendable, Equatable {
    package static let fragmentLength = 252

    package struct Fragment: Sendable, Equatable {
        /// The Download command's index octet (bit 7: the last).
        package let index: UInt8
        /// The payload's octets this fragment carries.
        package let range: Range<Int>
    }

    /// The exact octets downloaded.
    package let payload: [UInt8]
    package let patchLength: Int
    package let configLength: Int

    package init(patch: [UInt8], config: RealtekConfig?) {
        payload = patch + (config?.bytes ?? [])
        patchLength = patch.count
        configLength = config?.bytes.count ?? 0
    }

    package var fragments: [Fragment] { Self.fragments(length: payload.count) }

    /// The fragments of a payload of `length` octets.
    package static func fragments(length: Int) -> [Fragment] {
        let count = length / fragmentLength + 1
        var next: UInt8 = 0
        return (0..<count).map { number in
            var index = next
            next = index == 0x7F ? 1 : index + 1
            if number == count - 1 { index |= 0x80 }
            let start = number * fragmentLength
            return Fragment(index: index, range: start..<min(start + fragmentLength, length))
        }
    }
}

/// A controller's firmware file as btrtl uses it: an epatch, or (the RTL8723A, LMP subversion 0x1200) a plain
/// image downloaded whole.
package enum RealtekFirmware: Sendable {
    case epatch(RealtekEpatch)
    case plain(file: String, bytes: [UInt8])

    package static let lmpSubversion8723A: UInt16 = 0x1200

    /// Reads `bytes` for a controller of LMP subversion `lmpSubversion` (nil: the one the file's project is
    /// for); refuses a file for another chip as btrtl does.
    package init(bytes: [UInt8], file: String, lmpSubversion: UInt16?) throws(FirmwareError) {
        if lmpSubversion == Self.lmpSubversion8723A {
            guard bytes.count >= 8 else {
                throw FirmwareError(file: file, problem: "truncated RTL8723A firmware: \(bytes.count) octets, at least 8 expected")
            }
            guard Array(bytes.prefix(8)) != RealtekEpatch.signatureV1 else {
                throw FirmwareError(file: file, problem: "an epatch, but the RTL8723A (LMP subversion 0x1200) takes a plain image (rtl8723a_fw.bin)")
            }
            self = .plain(file: file, bytes: bytes)
            return
        }
        let epatch = try RealtekEpatch(bytes: bytes, file: file)
        if let lmpSubversion, lmpSubversion != epatch.project.lmpSubversion {
            throw FirmwareError(file: file, problem: "firmware for \(epatch.project.chip) (project ID \(epatch.project.id), LMP subversion "
                                + "\(epatch.project.lmpSubversion.hex(4))), not for a controller of LMP subversion \(lmpSubversion.hex(4))")
        }
        self = .epatch(epatch)
    }

    /// The ROM versions to choose from; none for a plain image.
    package var romVersions: [UInt8] {
        if case .epatch(let epatch) = self { return epatch.romVersions() }
        return []
    }

    /// The patch for ROM version `romVersion` (ignored for a plain image).
    package func patch(romVersion: UInt8) throws(FirmwareError) -> [UInt8] {
        switch self {
        case .epatch(let epatch): try epatch.patch(romVersion: romVersion)
        case .plain(_, let bytes): bytes
        }
    }
}
