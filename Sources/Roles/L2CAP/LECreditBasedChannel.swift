import Support
import HCIPackets
import EventLoops
import HostCore

/// One LE credit-based connection-oriented channel (Core v5.4 Vol 3 Part A §3.4, §4.22–4.24, §10.1) on a
/// link: SDUs out, segmented into K-frames by the peer's MPS and paced by the credits the peer gives; SDUs in,
/// reassembled within our MTU and MPS, with credits given back as they are consumed.
///
/// Runs on its host's event loop, like the connection it belongs to; every wait has a deadline on the loop's
/// clock and ends early when the task is cancelled.
public actor LECreditBasedChannel {
    public nonisolated let spsm: UInt16
    /// The link's connection handle.
    public nonisolated let handle: UInt16
    /// Our endpoint's CID (the peer sends K-frames to it) and the peer's (we send to it): 0x0040–0x007F.
    public nonisolated let localCID: UInt16
    public nonisolated let peerCID: UInt16
    /// The largest SDU and K-frame payload we receive.
    public nonisolated let mtu: UInt16
    public nonisolated let mps: UInt16
    /// The largest SDU and K-frame payload the peer receives.
    public nonisolated let peerMTU: UInt16
    public nonisolated let peerMPS: UInt16
    nonisolated let host: HCIHost
    public nonisolated var unownedExecutor: UnownedSerialExecutor { host.loop.asUnownedSerialExecutor() }
    weak var connection: LEConnection?

    /// K-frames we may still send (the peer's credits to us).
    public internal(set) var credits: Int
    /// K-frames the peer may still send us (our credits to it).
    public internal(set) var peerCredits: Int
    /// Why the channel closed, once it has.
    public internal(set) var closure: LECreditBasedChannelClosure?

    var reassembler: SDUReassembler
    /// Whole SDUs not yet taken by `receive`, each with the K-frames whose credits go back when it is.
    var inbox: [(sdu: [UInt8], frames: Int)] = []
    /// K-frames of the SDU under way whose credits have not gone back yet.
    var uncreditedFrames = 0
    /// Waits for the next change of credits, inbox, send turn or closure.
    var watchers: [OneShot<Bool>] = []
    /// Sends in the order they began; the first holds the channel until its last K-frame is out.
    var sendQueue: [UInt64] = []
    var nextSend: UInt64 = 0

    init(connection: LEConnection, spsm: UInt16, localCID: UInt16, peerCID: UInt16,
         local: LECreditBasedChannelParameters, peer: LECreditBasedChannelParameters) {
        self.spsm = spsm
        handle = connection.handle
        host = connection.host
        self.connection = connection
        self.localCID = localCID
        self.peerCID = peerCID
        mtu = local.mtu
        mps = local.mps
        peerMTU = peer.mtu
        peerMPS = peer.mps
        credits = Int(peer.credits)
        peerCredits = Int(local.credits)
        reassembler = SDUReassembler(mtu: Int(local.mtu), mps: Int(local.mps))
    }

    /// Whether the channel is still open.
    public var isOpen: Bool { closure == nil }

    /// Sends one SDU (at most the peer's MTU): K-frames of at most the peer's MPS, the first with the SDU's
    /// length (§3.4.2), one credit each (§10.1). Waits for credits when none are left, and for sends begun
    /// earlier to finish, all within `timeout`; a send that gives up part-way through its SDU closes the channel,
    /// since the peer could not tell its K-frames from the next SDU's.
    public func send(_ sdu: [UInt8], timeout: Duration = .seconds(5)) async throws(RoleError) {
        try checkOpen()
        guard sdu.count <= Int(peerMTU) else {
            throw .invalidArgument("an SDU of \(sdu.count) octets exceeds the peer's MTU \(peerMTU) on channel 0x\(hex4(localCID)) (Vol 3 Part A §3.4.3)")
        }
        let started = host.loop.now
        let deadline = started.advanced(by: timeout)
        let ticket = nextSend
        nextSend += 1
        sendQueue.append(ticket)
        defer {
            sendQueue.removeAll { $0 == ticket }
            changed()
        }
        while sendQueue.first != ticket {
            try await change(before: deadline, started: started, timeout: timeout,
                             awaited: "the end of an earlier send on channel 0x\(hex4(localCID))")
            try checkOpen()
        }
        let frames = KFrames.segment(sdu, mps: Int(peerMPS))
        for (index, frame) in frames.enumerated() {
            do throws(RoleError) {
                while credits == 0 {
                    try await change(before: deadline, started: started, timeout: timeout,
                                     awaited: "Flow Control Credit Ind for channel 0x\(hex4(localCID)) (\(index) of \(frames.count) K-frames of a \(sdu.count)-octet SDU sent, no credits left)")
                    try checkOpen()
                }
                credits -= 1
                let remaining = host.loop.now.duration(to: deadline)
                do {
                    try await host.sendACL(handle: handle, pdu: L2CAPFrame(channel: peerCID, payload: frame).encoded, timeout: remaining)
                } catch {
                    throw .host(error)
                }
            } catch {
                if index > 0, closure == nil { await disconnect(.abandonedSDU("\(index) of \(frames.count) K-frames sent: \(error)")) }
                throw error
            }
        }
    }

    /// The next SDU the peer sent, within `timeout`; SDUs that came before the channel closed are still
    /// delivered. Taking one gives its credits back to the peer (Flow Control Credit Ind, §4.24).
    public func receive(timeout: Duration = .seconds(5)) async throws(RoleError) -> [UInt8] {
        let started = host.loop.now
        let deadline = started.advanced(by: timeout)
        while inbox.isEmpty {
            try checkOpen()
            try await change(before: deadline, started: started, timeout: timeout, awaited: "an SDU on channel 0x\(hex4(localCID))")
        }
        let (sdu, frames) = inbox.removeFirst()
        if frames > 0, closure == nil { await grant(frames) }
        return sdu
    }

    /// Closes the channel: Disconnection Request, then waits for the Disconnection Response within `timeout`
    /// (Core v5.4 Vol 3 Part A §4.6–4.7). Sends and receives under way fail at once; a closed channel stays closed.
    public func close(timeout: Duration = .seconds(5)) async throws(RoleError) {
        guard closure == nil else { return }
        closed(.local)
        guard let connection else { return }
        try await connection.disconnect(channel: self, timeout: timeout)
    }

    /// The error a call on the closed channel throws: the link's end names the link's reason.
    func checkOpen() throws(RoleError) {
        switch closure {
        case nil: return
        case .linkEnded(let reason): throw .disconnected(handle: handle, reason: reason)
        case let closure?: throw .channelClosed(cid: localCID, why: closure.description)
        }
    }

    /// Waits for the next change; throws what was awaited at the deadline or on cancellation.
    func change(before deadline: ContinuousClock.Instant, started: ContinuousClock.Instant, timeout: Duration,
                awaited: String) async throws(RoleError) {
        if host.loop.now < deadline, !Task.isCancelled {
            let change = OneShot<Bool>()
            watchers.append(change)
            let changed = await host.loop.value(of: change, until: deadline, orElse: false)
            watchers.removeAll { $0 === change }
            if changed { return }
        }
        if Task.isCancelled { throw .host(.cancelled(awaited: awaited, waited: started.duration(to: host.loop.now))) }
        throw .timeout(awaited: awaited, timeout: timeout)
    }

    /// Wakes every wait on the channel.
    func changed() {
        let waiting = watchers
        watchers.removeAll()
        for watcher in waiting { watcher.resolve(true) }
    }

    /// Marks the channel closed (the first reason stays) and wakes its waits.
    func closed(_ why: LECreditBasedChannelClosure) {
        guard closure == nil else { return }
        closure = why
        changed()
    }

    /// Closes the channel for `why` and tells the peer with a Disconnection Request, not waiting for its answer.
    func disconnect(_ why: LECreditBasedChannelClosure) async {
        closed(why)
        guard let connection else { return }
        Task(executorPreference: host.loop) { [self] in
            try? await connection.disconnect(channel: self, timeout: .seconds(5))
        }
    }

    /// Gives the peer `frames` more credits (Flow Control Credit Ind carries our CID, §4.24).
    func grant(_ frames: Int) async {
        peerCredits += frames
        let cid = localCID
        try? await connection?.sendSignaling { .flowControlCreditIndication(identifier: $0, cid: cid, credits: UInt16(clamping: frames)) }
    }
}

/// What one side of an LE credit-based channel offers (Core v5.4 Vol 3 Part A §4.22): the largest SDU (MTU)
/// and K-frame payload (MPS) it receives, and the K-frames the other side may send before more credits.
public struct LECreditBasedChannelParameters: Sendable, Hashable {
    public var mtu: UInt16
    public var mps: UInt16
    public var credits: UInt16

    /// MTU at least 23, MPS 23–65533 (§4.22), SPSM 0x0001–0x00FF (§4.22, Table 4.19).
    func check(spsm: UInt16) throws(RoleError) {
        guard (0x0001...0x00FF).contains(spsm) else { throw .invalidArgument("SPSM 0x\(hex4(spsm)) is outside 0x0001–0x00FF (Vol 3 Part A §4.22)") }
        guard mtu >= 23 else { throw .invalidArgument("MTU \(mtu) is below the minimum 23 (Vol 3 Part A §4.22)") }
        guard (23...65533).contains(mps) else { throw .invalidArgument("MPS \(mps) is outside 23–65533 (Vol 3 Part A §4.22)") }
    }
}
