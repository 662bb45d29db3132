// The peer's ATT server in the host target: answers the last request our GATT client sent.
import HCIPackets
import HostCore
import GATT
import Synchronization

/// Reassembles what the host sent on the link and answers its last ATT request (CID 0x0004) the way
/// our own `ATTServer` over the same database would: the peer behaving, between the fuzzed PDUs.
final class PeerATT: Sendable {
    private let server: Mutex<ATTServer>

    init(database: GATTDatabase) { server = Mutex(ATTServer(database: database)) }

    func answerLast(sent: [ACLDataPacket]) -> [UInt8]? {
        var reassembler = ACLReassembler()
        var last: [UInt8]?
        for packet in sent {
            guard let pdu = try? reassembler.add(packet), let frame = try? L2CAPFrame(decoding: pdu),
                  frame.channel == L2CAPChannelID.att, ATTOpcode(frame.payload.first ?? 0).isRequest else { continue }
            last = frame.payload
        }
        guard let last else { return nil }
        return server.withLock { $0.reply(to: last).response }
    }
}
