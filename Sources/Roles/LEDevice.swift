import Synchronization
import HCIPackets
import EventLoops
import HCITransports
import HostCore
import GATT
import SMP

/// The top of the stack for one controller, in the shape of Bumble's `Device`: scanning and connecting
/// (central), advertising and accepting connections with a GATT server (peripheral), and one
/// `LEConnection` per link, with events routed to it in the order the controller sent them.
///
/// It runs on its host's event loop, so calls between it, its connections and the host do not hop threads.
public actor LEDevice {
    public nonisolated let host: HCIHost
    public nonisolated var unownedExecutor: UnownedSerialExecutor { host.loop.asUnownedSerialExecutor() }

    /// Open links by handle.
    public internal(set) var connections: [UInt16: LEConnection] = [:]
    /// The host listener's ID, once events are routed here.
    var listening: UInt64?
    /// Work an event leaves that must await (an L2CAP PDU's handling, advertising again), done in order
    /// by one task on the host's loop.
    var followUps: AsyncStream<FollowUp>.Continuation?
    var followUpWorker: Task<Void, Never>?
    /// Follow-ups queued and not yet done: while any are, a link's end is queued behind them too, so a PDU
    /// that arrived before a Disconnection Complete is handled before the link counts as ended.
    var pendingFollowUps = 0
    /// Negative Replies to LTK requests for handles with no link, by ID, until each ends.
    var unknownKeyRequestAnswers: [UInt64: Task<Void, Never>] = [:]
    var nextUnknownKeyRequestAnswer: UInt64 = 1
    var scan: ScanSession?
    var pendingConnect: PendingConnect?
    var incomingContinuation: AsyncStream<LEConnection>.Continuation?
    var advertising: Advertisement?
    /// The advertisement to resume after a peripheral link ends; cleared by `stopAdvertising`.
    var lastAdvertisement: Advertisement?
    /// Whether to advertise again when a peripheral link ends (what an accessory does).
    public var readvertiseAfterDisconnection = true
    /// The host loop's clock (virtual time on a simulated bench).
    nonisolated var clock: LoopClock { host.loop.clock }

    /// The GATT database served to peers on every link (nil: requests are answered Request Not Supported);
    /// `serve(_:)` changes it.
    public nonisolated var database: GATTDatabase? { servedDatabase.withLock { $0 } }
    private nonisolated let servedDatabase: Mutex<GATTDatabase?>
    func setServedDatabase(_ database: GATTDatabase) { servedDatabase.withLock { $0 = database } }
    /// The ATT transaction timeout of this device's GATT clients (30 s, Core v5.4 Vol 3 Part F §3.3.3).
    public nonisolated let attTransactionTimeout: Duration
    /// Observers of `attributeWrites()`.
    var writeObservers = Observers<AttributeWrite>()

    /// How this device pairs when a peer asks (a Pairing Request, or a Security Request to a central);
    /// nil answers Pairing Failed, 0x05 Pairing Not Supported.
    public internal(set) var pairingOptions: PairingOptions?
    /// Where bonds are kept and looked up (an LTK request, a reconnect); nil keeps none.
    public internal(set) var bondStore: (any BondStorage)?
    /// Our identity address and IRK, distributed when the peer asks for IdKey; a random static identity
    /// address is also the address this device connects and advertises with.
    public internal(set) var identity: LocalIdentity?
    /// Advertise and connect with a fresh resolvable private address made from our IRK (LE privacy)
    /// instead of the identity address; the peer resolves it with the IRK we distributed.
    public internal(set) var usesPrivateAddresses = false
    /// The resolvable private address in use, once one is set.
    var privateAddress: BDAddress?
    /// Failed pairings per peer, for Repeated Attempts (Core v5.4 Vol 3 Part H §2.3.6).
    var pairingFailures: [BDAddress: (count: Int, last: ContinuousClock.Instant)] = [:]
    /// Observers of `pairingEvents()`.
    var pairingObservers = Observers<PairingEvent>()
    /// Observers of `scanRequests()`.
    var scanRequestObservers = Observers<ScanRequest>()
    /// LE credit-based channel listeners by SPSM (`listen(spsm:mtu:mps:credits:)`).
    var channelListeners: [UInt16: ChannelListener] = [:]
    var nextChannelListenerID: UInt64 = 1
    /// How this device, as central, answers a peripheral's Connection Parameter Update Request.
    public internal(set) var parameterRequestPolicy = ParameterRequestPolicy.acceptValid

    public init(host: HCIHost, database: GATTDatabase? = nil, attTransactionTimeout: Duration = .seconds(30)) {
        self.host = host
        self.servedDatabase = Mutex(database)
        self.attTransactionTimeout = attTransactionTimeout
    }

    /// Initializes the controller (HCI Reset and reads) unless it already is, and starts routing events.
    @discardableResult
    public func start() async throws(RoleError) -> ControllerInfo {
        if listening == nil {
            let (stream, continuation) = AsyncStream<FollowUp>.makeStream()
            followUps = continuation
            followUpWorker = Task(executorPreference: host.loop) { [weak self] in
                for await followUp in stream {
                    guard let self else { return }
                    await self.perform(followUp)
                }
            }
            listening = await host.listen { [weak self] event in
                guard let self else { return }
                self.assumeIsolated { device in
                    if let event { device.dispatch(event) } else { device.hostEnded() }
                }
            }
        }
        if let info = await host.controllerInfo, await host.state == .poweredOn { return info }
        do {
            return try await host.initialize()
        } catch {
            throw .host(error)
        }
    }

    /// Closes the host's transport (its links end, every wait fails with the reason), then stops routing.
    public func close() async {
        await host.close()
        if let listening { await host.stopListening(listening) }
        listening = nil
        followUps?.finish()
        followUps = nil
        followUpWorker?.cancel()
        followUpWorker = nil
    }

    /// Connections that peers make to this device while it advertises, as they complete.
    public func incomingConnections() -> AsyncStream<LEConnection> {
        let (stream, continuation) = AsyncStream<LEConnection>.makeStream()
        incomingContinuation?.finish()
        incomingContinuation = continuation
        return stream
    }

    /// What an event leaves to do that must await.
    enum FollowUp: Sendable {
        case pdu(LEConnection, [UInt8])
        case ended(LEConnection, HCIStatus, note: String?)
        case readvertise
        /// Encryption Change or Encryption Key Refresh Complete on a link.
        case encryption(LEConnection, HCIStatus, enabled: Bool)
        case longTermKeyRequest(LEConnection, ediv: UInt16, random: UInt64)
    }

    /// Routes one host event, on the host's loop, as the host handles it: tables, scan results, connection
    /// state and waiters are up to date before any caller the event resumes runs.
    func dispatch(_ event: HostEvent) {
        switch event {
        case .hci(.le(.advertisingReports(let reports))):
            for report in reports { scanReport(report) }
        case .hci(.le(.connectionComplete(let complete))):
            connectionCompleted(complete)
        case .hci(.le(.scanRequestReceived(let set, let type, let address))):
            scanRequested(by: address, type: type, set: set)
        case .hci(.disconnectionComplete(let complete)) where complete.status == .success:
            if let connection = connections.removeValue(forKey: complete.handle) {
                end(connection, reason: complete.reason, note: nil)
                if connection.role == .peripheral { followUp(.readvertise) }
            }
        case .hci(.encryptionChange(let status, let handle, let enabled)):
            if let connection = connections[handle] { followUp(.encryption(connection, status, enabled: enabled != 0)) }
        case .hci(.encryptionKeyRefreshComplete(let status, let handle)):
            if let connection = connections[handle] { followUp(.encryption(connection, status, enabled: true)) }
        case .hci(.le(.longTermKeyRequest(let handle, let random, let ediv))):
            if let connection = connections[handle] {
                followUp(.longTermKeyRequest(connection, ediv: ediv, random: random))
            } else {
                answerUnknownLongTermKeyRequest(handle: handle)
            }
        case .hci(.le(.connectionUpdateComplete(let status, let handle, let interval, let latency, let timeout))):
            connections[handle]?.assumeIsolated { $0.parametersUpdated(status: status, interval: interval, latency: latency, timeout: timeout) }
        case .hci(.le(.phyUpdateComplete(let status, let handle, let transmitter, let receiver))):
            connections[handle]?.assumeIsolated { $0.phyUpdated(status: status, transmitter: transmitter, receiver: receiver) }
        case .hci(.le(.dataLengthChange(let handle, let txOctets, let txTime, let rxOctets, let rxTime))):
            let length = LinkDataLength(transmit: DataLength(octets: txOctets, time: txTime), receive: DataLength(octets: rxOctets, time: rxTime))
            connections[handle]?.assumeIsolated { $0.dataLengthChanged(length) }
        case .aclPDU(let handle, let pdu):
            if let connection = connections[handle] { followUp(.pdu(connection, pdu)) }
        case .connectionsCleared(let handles, let why):
            for handle in handles {
                if let connection = connections.removeValue(forKey: handle) {
                    end(connection, reason: .connectionTerminatedByLocalHost, note: why)
                }
            }
            advertising = nil
        default:
            break
        }
    }

    /// A link ended: at once, unless PDUs that came before are still being handled (then after them).
    func end(_ connection: LEConnection, reason: HCIStatus, note: String?) {
        if pendingFollowUps == 0 {
            connection.assumeIsolated { $0.ended(reason: reason, note: note) }
        } else {
            followUp(.ended(connection, reason, note: note))
        }
    }

    func followUp(_ work: FollowUp) {
        guard let followUps else { return }
        pendingFollowUps += 1
        followUps.yield(work)
    }

    func perform(_ work: FollowUp) async {
        switch work {
        case .pdu(let connection, let pdu): await connection.received(pdu: pdu)
        case .ended(let connection, let reason, let note): await connection.ended(reason: reason, note: note)
        case .readvertise: await readvertiseIfWanted()
        case .encryption(let connection, let status, let enabled): await connection.encryptionChanged(status: status, enabled: enabled)
        case .longTermKeyRequest(let connection, let ediv, let random): await connection.longTermKeyRequested(ediv: ediv, random: random)
        }
        pendingFollowUps -= 1
    }

    func hostEnded() {
        for connection in connections.values {
            end(connection, reason: .connectionTerminatedByLocalHost, note: "transport closed")
        }
        connections.removeAll()
        finishScan()
        let reason = host.assumeIsolated { $0.closedReason } ?? HCITransportError(.closedByHost, "closed")
        pendingConnect?.fail(.host(.transportClosed(reason)))
        pendingConnect = nil
        incomingContinuation?.finish()
        finishChannelListeners()
        listening = nil
        followUps?.finish()
        followUps = nil
    }

    func connectionCompleted(_ complete: LEConnectionComplete) {
        if complete.status != .success {
            if complete.role == .central || pendingConnect != nil {
                pendingConnect?.completed(.failure(.connectionFailed(address: pendingConnect?.address ?? complete.peerAddress, status: complete.status)))
                pendingConnect = nil
            }
            return
        }
        let connection = LEConnection(device: self, complete: complete)
        connections[complete.handle] = connection
        if complete.role == .peripheral {
            advertising = nil // the controller stops advertising when a connection forms
            incomingContinuation?.yield(connection)
        } else if let pending = pendingConnect {
            pendingConnect = nil
            pending.completed(.success(connection))
        }
    }
}
