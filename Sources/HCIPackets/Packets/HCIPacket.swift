/// One HCI packet as it crosses a transport, without interpretation of its parameters.
///
/// Unknown opcodes and event codes are kept raw here; typed decoding happens in `HCIEvent` and the commands.
public enum HCIPacket: Hashable, Sendable, CustomStringConvertible {
    case command(HCICommandPacket)
    case event(HCIEventPacket)
    case aclData(ACLDataPacket)
    /// Synchronous (SCO) or ISO data, kept whole (indicator, then header and payload).
    case other(indicator: HCIPacketIndicator, bytes: [UInt8])

    /// The H4 indicator of this packet.
    public var indicator: HCIPacketIndicator {
        switch self {
        case .command: .command
        case .event: .event
        case .aclData: .aclData
        case .other(let indicator, _): indicator
        }
    }

    /// The packet without its H4 indicator (what btsnoop and USB carry).
    public var bodyBytes: [UInt8] {
        switch self {
        case .command(let packet): packet.bytes
        case .event(let packet): packet.bytes
        case .aclData(let packet): packet.bytes
        case .other(_, let bytes): bytes
        }
    }

    /// The packet with its H4 indicator first, as written to a UART, socket or btvirt.
    public var h4Bytes: [UInt8] {
        var bytes = [indicator.rawValue]
        bytes.append(contentsOf: bodyBytes)
        return bytes
    }

    public var description: String {
        switch self {
        case .command(let packet): "command \(packet.opcode)"
        case .event(let packet): "event 0x\(hex2(packet.code)) (\(packet.parameters.count) bytes)"
        case .aclData(let packet): "ACL handle 0x\(hex4(packet.handle)) (\(packet.data.count) bytes)"
        case .other(let indicator, let bytes): "\(indicator) (\(bytes.count) bytes)"
        }
    }
}

/// An HCI Command packet (Core v5.4 Vol 4 Part E §5.4.1): opcode, parameter length, parameters.
public struct HCICommandPacket: Hashable, Sendable {
    public let opcode: HCIOpcode
    public let parameters: [UInt8]

    public init(opcode: HCIOpcode, parameters: [UInt8] = []) {
        self.opcode = opcode
        self.parameters = parameters
    }

    /// Header and parameters, without the H4 indicator.
    public var bytes: [UInt8] {
        var bytes = [UInt8(opcode.rawValue & 0xFF), UInt8(opcode.rawValue >> 8), UInt8(truncatingIfNeeded: parameters.count)]
        bytes.append(contentsOf: parameters)
        return bytes
    }
}

/// An HCI Event packet (Core v5.4 Vol 4 Part E §5.4.4): event code, parameter length, parameters.
public struct HCIEventPacket: Hashable, Sendable {
    public let code: UInt8
    public let parameters: [UInt8]

    public init(code: UInt8, parameters: [UInt8]) {
        self.code = code
        self.parameters = parameters
    }

    /// Header and parameters, without the H4 indicator.
    public var bytes: [UInt8] {
        var bytes = [code, UInt8(truncatingIfNeeded: parameters.count)]
        bytes.append(contentsOf: parameters)
        return bytes
    }
}

/// An HCI ACL Data packet (Core v5.4 Vol 4 Part E §5.4.2).
public struct ACLDataPacket: Hashable, Sendable {
    /// Packet_Boundary_Flag.
    public enum Boundary: UInt8, Sendable {
        /// First non-automatically-flushable packet of a higher-layer message (host to controller).
        case firstNonFlushable = 0b00
        /// Continuing fragment.
        case continuing = 0b01
        /// First automatically flushable packet (the LE start fragment in both directions).
        case firstFlushable = 0b10
        /// A complete L2CAP PDU, automatically flushable (BR/EDR only).
        case complete = 0b11
    }

    /// Connection_Handle (12 bits).
    public let handle: UInt16
    public let boundary: Boundary
    /// Broadcast_Flag (2 bits).
    public let broadcast: UInt8
    public let data: [UInt8]

    public init(handle: UInt16, boundary: Boundary, broadcast: UInt8 = 0, data: [UInt8]) {
        self.handle = handle & 0x0FFF
        self.boundary = boundary
        self.broadcast = broadcast & 0x03
        self.data = data
    }

    /// Header and data, without the H4 indicator.
    public var bytes: [UInt8] {
        let first = handle | UInt16(boundary.rawValue) << 12 | UInt16(broadcast) << 14
        var bytes = [UInt8(first & 0xFF), UInt8(first >> 8), UInt8(data.count & 0xFF), UInt8(data.count >> 8)]
        bytes.append(contentsOf: data)
        return bytes
    }

    /// Decodes header and data (without indicator); the length field must match.
    public init(decoding bytes: some Collection<UInt8>) throws(HCIDecodingError) {
        var reader = ByteReader(bytes, context: "HCI ACL Data")
        let first = try reader.u16("Handle and flags")
        let length = try reader.u16("Data_Total_Length")
        let data = try reader.bytes(Int(length), "Data")
        guard reader.remaining == 0 else {
            throw HCIDecodingError("HCI ACL Data: \(reader.remaining) byte(s) beyond Data_Total_Length \(length)")
        }
        self.init(handle: first & 0x0FFF,
                  boundary: Boundary(rawValue: UInt8((first >> 12) & 0x3)) ?? .continuing,
                  broadcast: UInt8(first >> 14), data: data)
    }
}
