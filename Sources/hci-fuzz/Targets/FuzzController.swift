// What the in-memory controller of the stateful targets answers by itself.
import HCIPackets

/// Answers for a small LE 5.0 controller: the initialization reads (with the LE ACL buffers the input
/// chose), and, when `answersEverything`, every other command: Command Status for those completed by a
/// later event (Core v5.4 Vol 4 Part E §7), Command Complete with success and zeroed return parameters
/// for the rest. With `connectsAt`, LE Create Connection is answered by its Command Status and at once
/// by LE Connection Complete with that handle (the peer was advertising).
struct FuzzController: Sendable {
    var leBufferLength: UInt16 = 27
    var leBufferCount: UInt8 = 2
    var answersEverything = false
    var connectsAt: UInt16?

    static let completedByEvent: Set<HCIOpcode> = [
        .leCreateConnection, .leExtendedCreateConnection, .disconnect, .leConnectionUpdate, .leReadRemoteFeatures,
        .readRemoteVersionInformation, .leEnableEncryption,
    ]

    func answer(_ command: HCICommandPacket) -> [UInt8]? {
        if let handle = connectsAt, command.opcode == .leCreateConnection || command.opcode == .leExtendedCreateConnection,
           case .event(let complete) = Self.connectionComplete(handle: handle, role: 0) {
            return Self.commandStatus(command.opcode, status: 0) + [HCIPacketIndicator.event.rawValue, complete.code, UInt8(complete.parameters.count)]
                + complete.parameters
        }
        switch command.opcode {
        case .reset, .setEventMask, .leSetEventMask:
            return Self.commandComplete(command.opcode, [])
        case .readLocalVersionInformation:
            return Self.commandComplete(command.opcode, [0x09, 0x00, 0x00, 0x09, 0x59, 0x00, 0x00, 0x00])
        case .readBDADDR:
            return Self.commandComplete(command.opcode, [0x42, 0x00, 0x00, 0x01, 0xAA, 0x00])
        case .readLocalSupportedCommands:
            return Self.commandComplete(command.opcode, [UInt8](repeating: 0, count: 64))
        case .readLocalSupportedFeatures:
            return Self.commandComplete(command.opcode, [0, 0, 0, 0, 0x60, 0, 0, 0])
        case .readBufferSize:
            return Self.commandComplete(command.opcode, [0, 0, 0, 0, 0, 0, 0])
        case .leReadLocalSupportedFeatures:
            return Self.commandComplete(command.opcode, [0x01, 0, 0, 0, 0, 0, 0, 0])
        case .leReadBufferSize:
            return Self.commandComplete(command.opcode, [UInt8(leBufferLength & 0xFF), UInt8(leBufferLength >> 8), leBufferCount])
        default:
            guard answersEverything else { return nil }
            if Self.completedByEvent.contains(command.opcode) { return Self.commandStatus(command.opcode, status: 0) }
            return Self.commandComplete(command.opcode, [UInt8](repeating: 0, count: 16))
        }
    }

    /// H4 Command Complete: one credit, status 0, then `returnParameters` (cut to fit the event).
    static func commandComplete(_ opcode: HCIOpcode, status: UInt8 = 0, credits: UInt8 = 1, _ returnParameters: [UInt8]) -> [UInt8] {
        // An event's parameters are at most 255 octets (its length is one octet).
        let parameters = Array(([credits, UInt8(opcode.rawValue & 0xFF), UInt8(opcode.rawValue >> 8), status] + returnParameters).prefix(255))
        return [HCIPacketIndicator.event.rawValue, HCIEvent.Code.commandComplete, UInt8(parameters.count)] + parameters
    }

    static func commandStatus(_ opcode: HCIOpcode, status: UInt8, credits: UInt8 = 1) -> [UInt8] {
        [HCIPacketIndicator.event.rawValue, 0x0F, 0x04, status, credits, UInt8(opcode.rawValue & 0xFF), UInt8(opcode.rawValue >> 8)]
    }

    /// LE Connection Complete (success) for `handle`: `role` 0 central, 1 peripheral, peer 00:AA:01:01:00:42
    /// (public), 30 ms interval, 420 ms supervision timeout.
    static func connectionComplete(handle: UInt16, role: UInt8) -> HCIPacket {
        .event(HCIEventPacket(code: 0x3E, parameters: [0x01, 0x00, UInt8(handle & 0xFF), UInt8(handle >> 8), role, 0x00,
                                                       0x42, 0x00, 0x01, 0x01, 0xAA, 0x00, 0x18, 0x00, 0x00, 0x00, 0x2A, 0x00, 0x00]))
    }

    static func disconnectionComplete(handle: UInt16, status: UInt8 = 0, reason: UInt8 = 0x13) -> HCIPacket {
        .event(HCIEventPacket(code: 0x05, parameters: [status, UInt8(handle & 0xFF), UInt8(handle >> 8), reason]))
    }

    static func completedPackets(handle: UInt16, count: UInt16) -> HCIPacket {
        .event(HCIEventPacket(code: 0x13, parameters: [0x01, UInt8(handle & 0xFF), UInt8(handle >> 8),
                                                       UInt8(count & 0xFF), UInt8(count >> 8)]))
    }
}
