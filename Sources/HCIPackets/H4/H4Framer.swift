/// Splits an H4 byte stream into HCI packets (Core v5.4 Vol 4 Part A).
///
/// Bytes may arrive in any split: one at a time, a packet in several reads, several packets in one read.
/// An unknown indicator byte or a length above the limit is a framing error that names the byte and its
/// offset in the stream; after an error the stream cannot be trusted and the framer stays failed.
public struct H4Framer: Sendable {
    /// The largest ACL or ISO data length accepted; anything above it is a framing error.
    public let maximumDataLength: Int
    private var buffer: [UInt8] = []
    private var start = 0
    /// Bytes consumed before `buffer[0]`, for error offsets.
    private var consumed = 0
    private var failure: H4FramingError?

    public init(maximumDataLength: Int = 4096) {
        self.maximumDataLength = maximumDataLength
    }

    /// Adds bytes and returns every packet they complete, in order.
    public mutating func feed(_ bytes: some Collection<UInt8>) throws(H4FramingError) -> [HCIPacket] {
        if let failure { throw failure }
        buffer.append(contentsOf: bytes)
        var packets: [HCIPacket] = []
        while let packet = try next() { packets.append(packet) }
        compact()
        return packets
    }

    /// Bytes received that do not yet form a whole packet.
    public var pendingByteCount: Int { buffer.count - start }

    private mutating func next() throws(H4FramingError) -> HCIPacket? {
        let available = buffer.count - start
        guard available >= 1 else { return nil }
        let indicatorByte = buffer[start]
        guard let indicator = HCIPacketIndicator(rawValue: indicatorByte) else {
            return try fail(.unknownIndicator(byte: indicatorByte, offset: consumed + start))
        }
        let headerLength: Int
        switch indicator {
        case .command: headerLength = 3
        case .aclData, .isoData: headerLength = 4
        case .synchronousData: headerLength = 3
        case .event: headerLength = 2
        }
        guard available >= 1 + headerLength else { return nil }
        let header = start + 1
        let bodyLength: Int
        switch indicator {
        case .command: bodyLength = Int(buffer[header + 2])
        case .event: bodyLength = Int(buffer[header + 1])
        case .synchronousData: bodyLength = Int(buffer[header + 2])
        case .aclData: bodyLength = Int(buffer[header + 2]) | Int(buffer[header + 3]) << 8
        case .isoData: bodyLength = (Int(buffer[header + 2]) | Int(buffer[header + 3]) << 8) & 0x3FFF
        }
        if (indicator == .aclData || indicator == .isoData) && bodyLength > maximumDataLength {
            return try fail(.oversizedLength(indicator: indicator, length: bodyLength,
                                             limit: maximumDataLength, offset: consumed + start))
        }
        let total = 1 + headerLength + bodyLength
        guard available >= total else { return nil }
        let body = Array(buffer[header..<(start + total)])
        start += total
        switch indicator {
        case .command:
            let opcode = HCIOpcode(rawValue: UInt16(body[0]) | UInt16(body[1]) << 8)
            return .command(HCICommandPacket(opcode: opcode, parameters: Array(body[3...])))
        case .event:
            return .event(HCIEventPacket(code: body[0], parameters: Array(body[2...])))
        case .aclData:
            let first = UInt16(body[0]) | UInt16(body[1]) << 8
            return .aclData(ACLDataPacket(handle: first & 0x0FFF,
                                          boundary: ACLDataPacket.Boundary(rawValue: UInt8((first >> 12) & 0x3)) ?? .continuing,
                                          broadcast: UInt8(first >> 14), data: Array(body[4...])))
        case .synchronousData, .isoData:
            return .other(indicator: indicator, bytes: body)
        }
    }

    private mutating func fail(_ error: H4FramingError) throws(H4FramingError) -> HCIPacket? {
        failure = error
        throw error
    }

    private mutating func compact() {
        if start == buffer.count {
            consumed += start
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 4096 {
            consumed += start
            buffer.removeFirst(start)
            start = 0
        }
    }
}

/// A byte stream that is not valid H4.
public enum H4FramingError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownIndicator(byte: UInt8, offset: Int)
    case oversizedLength(indicator: HCIPacketIndicator, length: Int, limit: Int, offset: Int)

    public var description: String {
        switch self {
        case .unknownIndicator(let byte, let offset):
            "H4 framing: unknown packet indicator 0x\(hex2(byte)) at stream offset \(offset)"
        case .oversizedLength(let indicator, let length, let limit, let offset):
            "H4 framing: \(indicator) packet at stream offset \(offset) claims \(length) bytes, above the limit of \(limit)"
        }
    }
}
