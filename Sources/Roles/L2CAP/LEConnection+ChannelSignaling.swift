import HCIPackets
import HostCore

extension LEConnection {
    /// The peer's LE Credit Based Connection Request (Core v5.4 Vol 3 Part A §4.22): accepted for an SPSM this
    /// device listens on (`LEDevice.listen`), otherwise refused with the result §4.23 gives — 0x0002 SPSM not
    /// supported, 0x0009 invalid Source CID, 0x000A Source CID already allocated, 0x000B unacceptable
    /// parameters, 0x0004 no resources available.
    func receivedChannelRequest(identifier: UInt8, spsm: UInt16, sourceCID: UInt16, peer: LECreditBasedChannelParameters) async {
        func answer(_ result: LECreditBasedConnectionResult, cid: UInt16 = 0, local: LECreditBasedChannelParameters? = nil) async {
            try? await send(channel: L2CAPChannelID.leSignaling, LESignalingCommand.leCreditBasedConnectionResponse(
                identifier: identifier, destinationCID: cid, mtu: local?.mtu ?? 0, mps: local?.mps ?? 0,
                credits: local?.credits ?? 0, result: result.rawValue).encoded)
        }
        guard let listener = await device?.channelListener(spsm: spsm) else { return await answer(.spsmNotSupported) }
        guard L2CAPChannelID.leDynamic.contains(sourceCID) else { return await answer(.invalidSourceCID) }
        guard channelTable.channel(peerCID: sourceCID) == nil else { return await answer(.sourceCIDAlreadyAllocated) }
        guard (try? peer.check(spsm: spsm)) != nil else { return await answer(.unacceptableParameters) }
        guard let cid = channelTable.takeCID() else { return await answer(.noResourcesAvailable) }
        let channel = LECreditBasedChannel(connection: self, spsm: spsm, localCID: cid, peerCID: sourceCID, local: listener.parameters, peer: peer)
        channelTable.channels[cid] = channel
        await answer(.successful, cid: cid, local: listener.parameters)
        listener.continuation.yield(channel)
    }

    /// An answer to a channel's signaling request (a response, or a Command Reject with its identifier);
    /// false when none waits for it.
    func answeredChannelRequest(_ command: LESignalingCommand) -> Bool {
        guard let waiting = channelTable.pending.removeValue(forKey: command.identifier) else { return false }
        waiting.resolve(.answer(command))
        return true
    }

    /// The peer's Disconnection Request (§4.6): answered with a Disconnection Response and the channel closed,
    /// or, for CIDs that name no channel of ours, a Command Reject "invalid CID in request" (§4.1).
    func receivedDisconnectionRequest(identifier: UInt8, destinationCID: UInt16, sourceCID: UInt16) async {
        guard let channel = channelTable.channels[destinationCID], channel.peerCID == sourceCID else {
            let cids = [UInt8(truncatingIfNeeded: destinationCID), UInt8(destinationCID >> 8),
                        UInt8(truncatingIfNeeded: sourceCID), UInt8(sourceCID >> 8)]
            try? await send(channel: L2CAPChannelID.leSignaling, LESignalingCommand.commandReject(
                identifier: identifier, reason: LESignalingCommand.RejectReason.invalidCIDInRequest, data: cids).encoded)
            return
        }
        channelTable.remove(destinationCID)
        await channel.closed(.peer)
        try? await send(channel: L2CAPChannelID.leSignaling, LESignalingCommand.disconnectionResponse(
            identifier: identifier, destinationCID: destinationCID, sourceCID: sourceCID).encoded)
    }

    /// The peer's Flow Control Credit Ind (§4.24): its CID is the peer's endpoint of the channel.
    func receivedCredits(cid: UInt16, credits: UInt16) async {
        guard let channel = channelTable.channel(peerCID: cid) else {
            note("Flow Control Credit Ind for CID 0x\(hex4(cid)), which names no channel (ignored, Vol 3 Part A §4.24)")
            return
        }
        await channel.received(credits: credits)
    }
}
