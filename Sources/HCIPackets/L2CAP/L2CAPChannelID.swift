/// LE fixed L2CAP channels (Core v5.4 Vol 3 Part A §2.1).
public enum L2CAPChannelID {
    /// Attribute protocol.
    public static let att: UInt16 = 0x0004
    /// LE signaling channel.
    public static let leSignaling: UInt16 = 0x0005
    /// Security Manager protocol.
    public static let smp: UInt16 = 0x0006
    /// The CIDs an LE credit-based channel's endpoint may take (Core v5.4 Vol 3 Part A §2.1, Table 2.3).
    public static let leDynamic: ClosedRange<UInt16> = 0x0040...0x007F
}

/// An L2CAP basic frame (B-frame, Core v5.4 Vol 3 Part A §3.1): length, channel ID, payload.
public struct L2CAPFrame: Hashable, Sendable {
    public var channel: UInt16
    public var payload: [UInt8]

    public init(channel: UInt16, payload: [UInt8]) {
        self.channel = channel
        self.payload = payload
    }

    /// Parses a whole PDU as the ACL reassembler delivers it.
    public init(decoding pdu: [UInt8]) throws(HCIDecodingError) {
        var reader = ByteReader(pdu, context: "L2CAP basic frame")
        let length = try reader.u16("Length")
        let channel = try reader.u16("Channel ID")
        let payload = try reader.bytes(Int(length), "Information payload")
        guard reader.remaining == 0 else {
            throw HCIDecodingError("L2CAP basic frame: \(reader.remaining) byte(s) beyond the length \(length)")
        }
        self.init(channel: channel, payload: payload)
    }

    /// Length, channel ID and payload.
    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: payload.count + 4)
        writer.u16(UInt16(truncatingIfNeeded: payload.count))
        writer.u16(channel)
        writer.append(payload)
        return writer.bytes
    }
}
