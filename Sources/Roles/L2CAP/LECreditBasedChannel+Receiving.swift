import HCIPackets
import HostCore

extension LECreditBasedChannel {
    /// One K-frame from the peer (Core v5.4 Vol 3 Part A §3.4): counted against its credits (§10.1), added to
    /// the SDU under way (§3.4.3). When the peer runs out of credits part-way through an SDU, the credits of
    /// its K-frames so far go back at once, or neither side could move.
    func received(frame payload: [UInt8]) async {
        // After our Disconnection Request, data is discarded (§4.6).
        guard closure == nil else { return }
        guard peerCredits > 0 else {
            await violated("a K-frame came with no credits left (Vol 3 Part A §10.1)", bytes: payload)
            return
        }
        peerCredits -= 1
        uncreditedFrames += 1
        let sdu: [UInt8]?
        do {
            sdu = try reassembler.add(payload)
        } catch {
            await violated(error.description, bytes: payload)
            return
        }
        if let sdu {
            inbox.append((sdu, uncreditedFrames))
            uncreditedFrames = 0
            changed()
        } else if peerCredits == 0 {
            let frames = uncreditedFrames
            uncreditedFrames = 0
            await grant(frames)
        }
    }

    /// The peer's Flow Control Credit Ind: more K-frames we may send; a total above 65535 breaks §10.1.
    func received(credits more: UInt16) async {
        guard closure == nil else { return }
        guard credits + Int(more) <= 65535 else {
            await violated("Flow Control Credit Ind of \(more) takes the credit count past 65535 (Vol 3 Part A §10.1)", bytes: [])
            return
        }
        credits += Int(more)
        changed()
    }

    /// Records the peer's violation on the link and the host, then disconnects the channel (§3.4.3).
    func violated(_ what: String, bytes: [UInt8]) async {
        let text = "channel 0x\(hex4(localCID)) (SPSM 0x\(hex4(spsm))): \(what)"
        await connection?.violated(ProtocolViolation(.l2cap, text, bytes: bytes))
        await disconnect(.violation(text))
    }
}
