import Support
import HCIPackets

/// A link's LE credit-based channels by our CID, the dynamic CIDs taken (open, opening or closing), and the
/// signaling requests of theirs waiting for an answer, by identifier.
struct ChannelTable {
    var channels: [UInt16: LECreditBasedChannel] = [:]
    /// CIDs in use, including those of a request not yet answered and of a Disconnection Request under way.
    var taken: Set<UInt16> = []
    var pending: [UInt8: OneShot<SignalingAnswer>] = [:]

    /// The lowest free CID of 0x0040–0x007F (Core v5.4 Vol 3 Part A §2.1), now taken; nil when all 64 are.
    mutating func takeCID() -> UInt16? {
        guard let cid = L2CAPChannelID.leDynamic.first(where: { !taken.contains($0) }) else { return nil }
        taken.insert(cid)
        return cid
    }

    /// The channel whose peer endpoint is `cid`.
    func channel(peerCID cid: UInt16) -> LECreditBasedChannel? {
        channels.values.first { $0.peerCID == cid }
    }

    mutating func remove(_ cid: UInt16) {
        channels[cid] = nil
        taken.remove(cid)
    }
}

/// What a signaling request of a channel got: the peer's answer (a response or a Command Reject), the link's
/// end, or nothing before the deadline or a cancellation.
enum SignalingAnswer: Sendable {
    case answer(LESignalingCommand)
    case linkEnded(HCIStatus)
    case gaveUp
}
