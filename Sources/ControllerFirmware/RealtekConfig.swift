/// A Realtek config file (`rtl_bt/*_config.bin`): the signature 0x8723AB55, the entries' total length, then
/// entries of a 16-bit offset, an 8-bit length and that many octets of data (all little-endian). btrtl sends it
/// as it is, after the patch.
package struct RealtekConfig: Sendable, Equatable {
    package struct Entry: Sendable, Equatable {
        package let offset: UInt16
        package let data: [UInt8]
    }

    package static let signature: UInt32 = 0x8723_AB55

    package let file: String
    /// The whole file: what is appended to the patch.
    package let bytes: [UInt8]
    package let entries: [Entry]

    package init(bytes: [UInt8], file: String) throws(FirmwareError) {
        let reader = FirmwareBytes(bytes: bytes, file: file)
        guard bytes.count >= 6 else {
            throw reader.failure("truncated config: \(bytes.count) octets, a config has at least 6 (its signature and length)")
        }
        let signature = try reader.u32(at: 0, "the signature")
        guard signature == Self.signature else {
            throw reader.failure("not a Realtek config: expected the signature 0x8723ab55, found \(signature.hex(8))")
        }
        let total = Int(try reader.u16(at: 4, "the entries' length"))
        guard total <= bytes.count - 6 else {
            throw reader.failure("truncated config: its entries' length is \(total) octets, the file has \(bytes.count - 6) after its header")
        }
        var entries: [Entry] = []
        var position = 6
        while position < 6 + total {
            guard 6 + total - position >= 3 else {
                throw reader.failure("a config entry at offset \(position) runs past the entries' end (\(6 + total))")
            }
            let offset = try reader.u16(at: position, "an entry offset")
            let length = Int(bytes[position + 2])
            guard length <= 6 + total - position - 3 else {
                throw reader.failure("the config entry for offset \(offset.hex(4)) is \(length) octets, past the entries' end (\(6 + total))")
            }
            entries.append(Entry(offset: offset, data: Array(bytes[(position + 3)..<(position + 3 + length)])))
            position += 3 + length
        }
        self.file = file
        self.bytes = bytes
        self.entries = entries
    }
}
