import Support
import HCIPackets
import EventLoops
import HostCore
import GATT
import SMP

/// One LE link (Core v5.4 Vol 6 Part B): its handle, role, peer and parameters; its L2CAP fixed
/// channels (ATT, LE signaling, SMP); and how it ended.
///
/// Runs on its host's event loop, like the device that made it.
public actor LEConnection {
    public nonisolated let handle: UInt16
    public nonisolated let role: LEConnectionComplete.Role
    public nonisolated let peerAddress: BDAddress
    public nonisolated let peerAddressType: AddressType
    public nonisolated let host: HCIHost
    public nonisolated var unownedExecutor: UnownedSerialExecutor { host.loop.asUnownedSerialExecutor() }
    public nonisolated let established: ContinuousClock.Instant

    /// Connection interval (1.25 ms units), peripheral latency, supervision timeout (10 ms units).
    public internal(set) var interval: UInt16
    public internal(set) var latency: UInt16
    public internal(set) var supervisionTimeout: UInt16
    /// The reason the link ended, once it has.
    public internal(set) var disconnectionReason: HCIStatus?
    /// A note on how it ended when the host, not the controller, ended it (a Reset, a closed transport).
    public internal(set) var endedNote: String?

    var endWaiters: [OneShot<HCIStatus?>] = []
    var nextSignalingIdentifier: UInt8 = 1
    var pendingParameterUpdate: (identifier: UInt8, continuation: CheckedContinuation<Result<Void, RoleError>, Never>)?
    /// The LE Connection Update applying a peripheral's accepted Connection Parameter Update Request: the link's
    /// own task, which a newer request or the link's end cancels.
    var peerRequestedUpdate: Task<Void, Never>?
    /// The LE Long Term Key Request Reply or Negative Reply answering the controller's LTK request for this link:
    /// the link's own task, which a newer request or the link's end cancels.
    var longTermKeyAnswer: Task<Void, Never>?
    var parameterUpdateWaiters: [CheckedContinuation<Result<Void, RoleError>, Never>] = []
    /// The link's LE credit-based channels and their signaling requests under way.
    var channelTable = ChannelTable()
    /// The PHYs in use (Core v5.4 Vol 4 Part E §7.7.65.12: 1 LE 1M, 2 LE 2M, 3 LE Coded), as the last LE PHY
    /// Update Complete said; LE 1M until one comes.
    public internal(set) var phy = LinkPHY(transmitter: 1, receiver: 1)
    /// Observers of `phyUpdates()` and of `linkEvents()`.
    var phyObservers = Observers<LinkPHYUpdate>()
    var linkObservers = Observers<LinkEvent>()
    /// The longest data PDU each direction carries, as the last LE Data Length Change said (27 octets each
    /// way until one comes).
    public internal(set) var dataLength = LinkDataLength.initial
    /// The peer's LE features, once `readRemoteFeatures` has read them.
    public internal(set) var remoteFeatures: LEFeatures?
    /// The GATT client of this link's ATT bearer: discovery, reads, writes, subscriptions.
    public nonisolated let gatt: GATTClient
    /// The server half of the bearer, serving the device's GATT database to the peer.
    var attServer: ATTServer?
    var confirmationWaiters: [OneShot<Bool>] = []
    weak var device: LEDevice?
    /// Anything odd on this link's channels (malformed frames, unknown channels).
    public internal(set) var anomalies: [String] = []

    /// The link's security: whether it is encrypted, with an authenticated key, of which size.
    public internal(set) var security = LinkSecurity()
    /// The pairing under way on this link, if any.
    var pairing: PairingSession?
    var pairingWaiters: [OneShot<Result<PairingResult, SecurityError>>] = []
    /// The SMP timer (30 s from the last SMP step, Core v5.4 Vol 3 Part H §3.4); once it fires no more
    /// SMP happens on this link.
    var smpTimer: UInt64?
    var smpTimedOut = false
    /// An LE Enable Encryption waiting for Encryption Change, and the security it will give.
    var encryptionWaiter: OneShot<Result<Void, SecurityError>>?
    /// Waits for the next change of `security` or of `encryptionWaiter` (true), or their deadline (false).
    var securityWatchers: [OneShot<Bool>] = []
    var pendingSecurity: LinkSecurity?
    /// The options our peripheral asked for with a Security Request, used when the central pairs.
    var securityRequestOptions: PairingOptions?
    /// The result of the last pairing on this link.
    public internal(set) var lastPairing: PairingResult?
    /// The AuthReq of the last Security Request the peer sent, if any.
    public internal(set) var securityRequested: AuthenticationRequirements?

    init(device: LEDevice, complete: LEConnectionComplete) {
        handle = complete.handle
        role = complete.role
        peerAddress = complete.peerAddress
        peerAddressType = complete.peerAddressType
        host = device.host
        established = host.loop.now
        interval = complete.interval
        latency = complete.latency
        supervisionTimeout = complete.supervisionTimeout
        let (host, handle) = (device.host, complete.handle)
        gatt = GATTClient(transactionTimeout: device.attTransactionTimeout, loop: device.host.loop,
                          reportViolation: { violation in await host.recordViolation(violation) }) { pdu in
            try await host.sendACL(handle: handle, pdu: L2CAPFrame(channel: L2CAPChannelID.att, payload: pdu).encoded)
        }
        attServer = device.database.map { ATTServer(database: $0) }
        self.device = device
    }

    /// Whether the link is still up.
    public var isConnected: Bool { disconnectionReason == nil }

    /// Sends Disconnect and waits for Disconnection Complete; returns the reason the local controller
    /// reports (0x16 Connection Terminated By Local Host on a real controller).
    @discardableResult
    public func disconnect(reason: HCIStatus = .remoteUserTerminatedConnection, timeout: Duration = .seconds(5)) async throws(RoleError) -> HCIStatus {
        if let disconnectionReason { return disconnectionReason }
        do {
            try await host.send(Disconnect(handle: handle, reason: reason))
        } catch {
            if let disconnectionReason { return disconnectionReason }
            throw .host(error)
        }
        return try await waitForDisconnection(timeout: timeout)
    }

    /// Waits until the link ends (for any reason) and returns the reason, within `timeout`.
    public func waitForDisconnection(timeout: Duration) async throws(RoleError) -> HCIStatus {
        if let disconnectionReason { return disconnectionReason }
        let handle = handle
        let started = host.loop.now
        let end = OneShot<HCIStatus?>()
        endWaiters.append(end)
        let reason = await host.loop.value(of: end, until: started.advanced(by: timeout), orElse: nil)
        // A deadline or a cancellation leaves the link up: the waiter goes, or a loop of short waits grows the list.
        endWaiters.removeAll { $0 === end }
        let awaited = "Disconnection Complete for handle 0x\(hex4(handle))"
        guard let reason else {
            if Task.isCancelled { throw .host(.cancelled(awaited: awaited, waited: started.duration(to: host.loop.now))) }
            throw .timeout(awaited: awaited, timeout: timeout)
        }
        return reason
    }

    func ended(reason: HCIStatus, note: String? = nil) {
        guard disconnectionReason == nil else { return }
        disconnectionReason = reason
        endedNote = note
        let waiters = endWaiters
        endWaiters.removeAll()
        for waiter in waiters { waiter.resolve(reason) }
        pendingParameterUpdate?.continuation.resume(returning: .failure(.disconnected(handle: handle, reason: reason)))
        pendingParameterUpdate = nil
        peerRequestedUpdate?.cancel()
        peerRequestedUpdate = nil
        longTermKeyAnswer?.cancel()
        longTermKeyAnswer = nil
        for waiter in parameterUpdateWaiters { waiter.resume(returning: .failure(.disconnected(handle: handle, reason: reason))) }
        parameterUpdateWaiters.removeAll()
        attBearerEnded(reason: reason, note: note)
        channelsEnded(reason: reason)
        securityEnded(reason: reason)
        phyObservers.finish()
        linkObservers.finish()
    }

    /// Routes one reassembled L2CAP PDU to its fixed channel, or its K-frame to an open LE credit-based channel.
    func received(pdu: [UInt8]) async {
        let frame: L2CAPFrame
        do {
            frame = try L2CAPFrame(decoding: pdu)
        } catch {
            await violated(ProtocolViolation(.l2cap, error.description, bytes: pdu))
            return
        }
        switch frame.channel {
        case L2CAPChannelID.att: await receivedATT(frame.payload)
        case L2CAPChannelID.leSignaling: await receivedSignaling(frame.payload)
        case L2CAPChannelID.smp: await receivedSMP(frame.payload)
        default:
            guard let channel = channelTable.channels[frame.channel] else {
                return await violated(ProtocolViolation(.l2cap, "frame on channel 0x\(hex4(frame.channel)), which is not open", bytes: pdu))
            }
            await channel.received(frame: frame.payload)
        }
    }

    /// Sends a B-frame on a fixed channel.
    func send(channel: UInt16, _ payload: [UInt8]) async throws(HCIError) {
        try await host.sendACL(handle: handle, pdu: L2CAPFrame(channel: channel, payload: payload).encoded)
    }

    /// Records what the peer sent against the protocol: as an anomaly of this link and on the host
    /// (`HCIHost.protocolViolations`), where a test case finds it.
    func violated(_ violation: ProtocolViolation) async {
        note(violation.description)
        await host.recordViolation(violation)
    }

    func note(_ text: String) {
        anomalies.append(text)
        if anomalies.count > 50 { anomalies.removeFirst() }
    }
}

/// Resumes a continuation once, from whichever of the event or the deadline comes first.
