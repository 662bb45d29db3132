import HCIPackets
// A bounds-checked reader for ATT PDU parameters.

/// Reads little-endian fields of one ATT PDU; every read past the end throws an
/// `ATTDecodingError` naming the PDU and the field instead of trapping.
///
/// Offsets in errors count from the opcode (offset 0), as the layouts of
/// Core v5.4 Vol 3 Part F §3.4 do.
struct ATTPDUReader {
    private let bytes: [UInt8]
    private var index: Int
    let opcode: ATTOpcode

    /// Reads `bytes`, the whole PDU; reading starts after the opcode octet.
    init(pdu bytes: [UInt8], opcode: ATTOpcode) {
        self.bytes = bytes
        self.index = 1
        self.opcode = opcode
    }

    var remaining: Int { bytes.count - index }

    mutating func u8(_ field: String) throws(ATTDecodingError) -> UInt8 {
        try need(1, field)
        defer { index += 1 }
        return bytes[index]
    }

    mutating func u16(_ field: String) throws(ATTDecodingError) -> UInt16 {
        try need(2, field)
        defer { index += 2 }
        return UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
    }

    /// Starting Handle and Ending Handle: the range a find or read-by-type request covers.
    mutating func handleRange() throws(ATTDecodingError) -> (start: UInt16, end: UInt16) {
        (try u16("Starting Handle"), try u16("Ending Handle"))
    }

    mutating func bytes(_ count: Int, _ field: String) throws(ATTDecodingError) -> [UInt8] {
        try need(count, field)
        defer { index += count }
        return Array(bytes[index..<(index + count)])
    }

    /// Everything left (possibly nothing).
    mutating func rest() -> [UInt8] {
        defer { index = bytes.count }
        return Array(bytes[index...])
    }

    /// A 2- or 16-octet UUID filling the rest of the PDU.
    mutating func uuidRest(_ field: String) throws(ATTDecodingError) -> BluetoothUUID {
        let raw = rest()
        guard raw.count == 2 || raw.count == 16, let uuid = BluetoothUUID(littleEndian: raw) else {
            throw invalid(field, "\(raw.count) octet(s); a UUID here is 2 or 16")
        }
        return uuid
    }

    /// Throws unless every octet has been read (fixed-length PDUs).
    func end() throws(ATTDecodingError) {
        guard remaining == 0 else {
            throw ATTDecodingError(opcode: opcode, field: "end of PDU", reason: .trailingBytes(count: remaining))
        }
    }

    func invalid(_ field: String, _ what: String) -> ATTDecodingError {
        ATTDecodingError(opcode: opcode, field: field, reason: .invalid(what))
    }

    private func need(_ count: Int, _ field: String) throws(ATTDecodingError) {
        guard count >= 0, remaining >= count else {
            throw ATTDecodingError(opcode: opcode, field: field,
                                   reason: .truncated(needed: count, offset: index, remaining: max(0, remaining)))
        }
    }
}

extension BluetoothUUID {
    /// The form ATT carries (Core v5.4 Vol 3 Part F §3.2.1): 2 octets for a 16-bit
    /// UUID, otherwise all 16 octets, least significant first. A 32-bit UUID is
    /// widened to 128 bits, since ATT has no 32-bit form.
    var attBytes: [UInt8] {
        width == .bits16 ? littleEndianBytes : Array(uuid128.reversed())
    }
}
