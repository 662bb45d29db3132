import Support
import HCIPackets
import EventLoops
import HostCore

extension LEConnection {
    /// Opens an LE credit-based channel to the peer's `spsm` (Core v5.4 Vol 3 Part A §4.22): our MTU and MPS
    /// (the largest SDU and K-frame we receive) and the K-frames the peer may send at first. Waits for the LE
    /// Credit Based Connection Response within `timeout`; a refusal throws `channelRefused` with the result by name.
    public func openChannel(spsm: UInt16, mtu: UInt16 = 512, mps: UInt16 = 247, credits: UInt16 = 8,
                            timeout: Duration = .seconds(5)) async throws(RoleError) -> LECreditBasedChannel {
        let local = LECreditBasedChannelParameters(mtu: mtu, mps: mps, credits: credits)
        try local.check(spsm: spsm)
        guard isConnected else { throw .disconnected(handle: handle, reason: disconnectionReason ?? .unknownConnectionIdentifier) }
        guard let cid = channelTable.takeCID() else {
            throw .busy("all LE dynamic CIDs (0x0040–0x007F) of link 0x\(hex4(handle)) are in use")
        }
        let answer: LESignalingCommand
        do {
            answer = try await signalingRequest("LE Credit Based Connection Response for SPSM 0x\(hex4(spsm))", timeout: timeout) {
                .leCreditBasedConnectionRequest(identifier: $0, spsm: spsm, sourceCID: cid, mtu: mtu, mps: mps, credits: credits)
            }
        } catch {
            channelTable.taken.remove(cid)
            throw error
        }
        switch answer {
        case .leCreditBasedConnectionResponse(_, let peerCID, let peerMTU, let peerMPS, let peerCredits, let result):
            guard result == LECreditBasedConnectionResult.successful.rawValue else {
                channelTable.taken.remove(cid)
                throw .channelRefused(spsm: spsm, result: LECreditBasedConnectionResult(rawValue: result))
            }
            let peer = LECreditBasedChannelParameters(mtu: peerMTU, mps: peerMPS, credits: peerCredits)
            guard L2CAPChannelID.leDynamic.contains(peerCID), (try? peer.check(spsm: spsm)) != nil else {
                channelTable.taken.remove(cid)
                let violation = ProtocolViolation(.signaling, "LE Credit Based Connection Response accepts with CID 0x\(hex4(peerCID)), MTU \(peerMTU), MPS \(peerMPS) (Vol 3 Part A §4.23 wants 0x0040–0x007F, ≥ 23, 23–65533)", bytes: answer.encoded)
                await violated(violation)
                throw .protocolViolation(violation)
            }
            let channel = LECreditBasedChannel(connection: self, spsm: spsm, localCID: cid, peerCID: peerCID, local: local, peer: peer)
            channelTable.channels[cid] = channel
            return channel
        default:
            channelTable.taken.remove(cid)
            throw .rejected("the peer answered the LE Credit Based Connection Request for SPSM 0x\(hex4(spsm)) with \(answer)")
        }
    }

    /// Sends a Disconnection Request for `channel` and waits for its response within `timeout` (§4.6–4.7); its
    /// CID is free again once answered or given up on.
    func disconnect(channel: LECreditBasedChannel, timeout: Duration) async throws(RoleError) {
        let (local, peer) = (channel.localCID, channel.peerCID)
        defer { channelTable.remove(local) }
        guard isConnected else { return }
        _ = try await signalingRequest("Disconnection Response for channel 0x\(hex4(local))", timeout: timeout) {
            .disconnectionRequest(identifier: $0, destinationCID: peer, sourceCID: local)
        }
    }

    /// Sends the signaling request `make` builds with a fresh identifier and waits for the peer's answer (a
    /// response or a Command Reject with that identifier) within `timeout` on the host's clock.
    func signalingRequest(_ awaited: String, timeout: Duration,
                          _ make: (UInt8) -> LESignalingCommand) async throws(RoleError) -> LESignalingCommand {
        let started = host.loop.now
        let identifier = takeSignalingIdentifier()
        let answer = OneShot<SignalingAnswer>()
        channelTable.pending[identifier] = answer
        defer { channelTable.pending[identifier] = nil }
        do {
            try await send(channel: L2CAPChannelID.leSignaling, make(identifier).encoded)
        } catch {
            throw .host(error)
        }
        switch await host.loop.value(of: answer, until: started.advanced(by: timeout), orElse: .gaveUp) {
        case .answer(let command): return command
        case .linkEnded(let reason): throw .disconnected(handle: handle, reason: reason)
        case .gaveUp:
            if Task.isCancelled { throw .host(.cancelled(awaited: awaited, waited: started.duration(to: host.loop.now))) }
            throw .timeout(awaited: awaited, timeout: timeout)
        }
    }

    /// Sends a signaling command that wants no answer, with a fresh identifier.
    func sendSignaling(_ make: (UInt8) -> LESignalingCommand) async throws(HCIError) {
        try await send(channel: L2CAPChannelID.leSignaling, make(takeSignalingIdentifier()).encoded)
    }

    /// The next signaling identifier: 1–255, never 0 (§4).
    func takeSignalingIdentifier() -> UInt8 {
        let identifier = nextSignalingIdentifier
        nextSignalingIdentifier = nextSignalingIdentifier == 255 ? 1 : nextSignalingIdentifier + 1
        return identifier
    }

    /// The link ended: every channel closes, naming the link's reason, and every channel request fails.
    func channelsEnded(reason: HCIStatus) {
        for answer in channelTable.pending.values { answer.resolve(.linkEnded(reason)) }
        for channel in channelTable.channels.values { channel.assumeIsolated { $0.closed(.linkEnded(reason)) } }
        channelTable = ChannelTable()
    }
}
