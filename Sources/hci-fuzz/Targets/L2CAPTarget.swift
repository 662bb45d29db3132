// l2cap: ACL reassembly into L2CAP basic frames.
import HCIPackets
import HostCore

/// The input is a sequence of ACL fragments as a controller delivers them: per fragment one control byte
/// (bits 0-1 the handle, one of four; bits 2-3 the Packet_Boundary_Flag), one length byte, then that
/// many data bytes. Byte 0 picks the reassembler's largest PDU (small limits reach the too-long path).
/// Every PDU the reassembler yields must be exactly its basic header's length plus 4, decode as an
/// L2CAP basic frame and re-encode to the same bytes.
enum L2CAPTarget {
    static let target = FuzzTarget(name: "l2cap", summary: "ACLReassembler fed fragment sequences, L2CAP basic frames", run: run)
    private static let handles: [UInt16] = [0x0040, 0x0041, 0x0EFF, 0x0000]

    static func run(_ bytes: [UInt8]) -> Int {
        var input = FuzzInput(bytes)
        let limits = [65_539, 27 + 4, 251 + 4, 517 + 4]
        var reassembler = ACLReassembler(maximumPDULength: limits[input.pick(limits.count)])
        var touched = 0
        while !input.isAtEnd {
            let control = input.byte()
            let boundary = ACLDataPacket.Boundary(rawValue: (control >> 2) & 0x03) ?? .continuing
            let packet = ACLDataPacket(handle: handles[Int(control & 0x03)], boundary: boundary, data: input.chunk())
            do {
                guard let pdu = try reassembler.add(packet) else { continue }
                let length = Int(pdu[0]) | Int(pdu[1]) << 8
                Harness.check(pdu.count == length + 4, "reassembled \(pdu.count) bytes for L2CAP length \(length)")
                Harness.check(pdu.count <= reassembler.maximumPDULength, "a PDU longer than the reassembler's limit")
                let frame = try L2CAPFrame(decoding: pdu)
                Harness.check(frame.encoded == pdu, "an L2CAP frame does not re-encode to its bytes")
                touched &+= Int(frame.channel) &+ frame.payload.count
            } catch {
                touched &+= error.description.count
            }
        }
        // The basic frame decoder on the raw input too.
        if let frame = try? L2CAPFrame(decoding: bytes) {
            Harness.check(frame.encoded == bytes, "an L2CAP frame does not re-encode to its bytes")
        }
        return touched
    }
}
