import HCIPackets
/// Overwrites the secret fields of the packets a capture records (`CaptureSecrets`) with the marker
/// (`CaptureKeys.marker`), octet for octet, so that each packet keeps its length and still decodes.
///
/// It works on a packet's bytes without its H4 indicator (what a monitor record carries), and follows each
/// ACL stream — per controller index, direction and Connection_Handle — so that an SMP PDU split across
/// fragments is redacted in every one of them.
struct CaptureRedactor {
    /// One direction of one connection on one controller.
    private struct Stream: Hashable {
        let index: UInt16
        let received: Bool
        let handle: UInt16
    }

    /// The L2CAP frame each stream is in the middle of; none once it is complete.
    private var frames: [Stream: L2CAPFrameCursor] = [:]

    /// `body` (a packet without its H4 indicator) with its secret fields overwritten. `received` is true for
    /// controller-to-host packets; `index` is the controller's in a monitor capture (0 in an H4 one).
    mutating func redact(_ indicator: HCIPacketIndicator, body: [UInt8], received: Bool, index: UInt16) -> [UInt8] {
        var bytes = body
        switch indicator {
        case .command: Self.redactCommand(&bytes)
        case .event: Self.redactEvent(&bytes)
        case .aclData: redactACL(&bytes, stream: Stream(index: index, received: received, handle: Self.handle(of: bytes)))
        case .synchronousData, .isoData: break
        }
        return bytes
    }

    /// An HCI Command (Vol 4 Part E §5.4.1): OpCode (2), Parameter_Total_Length (1), parameters.
    private static func redactCommand(_ bytes: inout [UInt8]) {
        guard bytes.count >= 3 else { return }
        let opcode = HCIOpcode(rawValue: UInt16(bytes[0]) | UInt16(bytes[1]) << 8)
        overwrite(&bytes, CaptureSecrets.command(opcode), at: 3)
    }

    /// An HCI Event (§5.4.4): Event_Code (1), Parameter_Total_Length (1), parameters.
    private static func redactEvent(_ bytes: inout [UInt8]) {
        guard bytes.count >= 3 else { return }
        let code = bytes[0]
        if code == CaptureSecrets.commandCompleteEvent {
            // Num_HCI_Command_Packets (1), Command_Opcode (2), Return_Parameters.
            guard bytes.count >= 5 else { return }
            let opcode = HCIOpcode(rawValue: UInt16(bytes[3]) | UInt16(bytes[4]) << 8)
            overwrite(&bytes, CaptureSecrets.commandComplete(opcode), at: 5)
        } else {
            let subevent = code == CaptureSecrets.leMetaEvent ? bytes[2] : nil
            overwrite(&bytes, CaptureSecrets.event(code: code, subevent: subevent), at: 2)
        }
    }

    /// HCI ACL Data (§5.4.2): Handle and flags (2), Data_Total_Length (2), data — an L2CAP frame or a piece of one.
    private mutating func redactACL(_ bytes: inout [UInt8], stream: Stream) {
        guard bytes.count >= 4 else { return }
        let boundary = (bytes[1] >> 4) & 0x03
        if boundary != ACLDataPacket.Boundary.continuing.rawValue {
            frames[stream] = L2CAPFrameCursor()
        }
        // A continuation whose start the capture never saw is left as it is: nothing says what it continues.
        guard var frame = frames[stream] else { return }
        frame.redact(&bytes, from: 4)
        frames[stream] = frame.isComplete ? nil : frame
    }

    /// The Connection_Handle of ACL data (the low 12 bits of its first two octets).
    private static func handle(of bytes: [UInt8]) -> UInt16 {
        guard bytes.count >= 2 else { return 0 }
        return (UInt16(bytes[0]) | UInt16(bytes[1]) << 8) & 0x0FFF
    }

    /// Overwrites each of `fields`, whose offsets count from `base` in `bytes`, with the marker; a field the
    /// packet is too short to hold is overwritten as far as it goes.
    private static func overwrite(_ bytes: inout [UInt8], _ fields: [SecretField], at base: Int) {
        for field in fields {
            for position in 0..<field.length {
                let at = base + field.offset + position
                guard at < bytes.count else { break }
                bytes[at] = CaptureKeys.markerOctet(position)
            }
        }
    }
}
