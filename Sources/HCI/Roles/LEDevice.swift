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
    var dispatcher: Task<Void, Never>?
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

    /// The GATT database served to peers on every link (nil: requests are answered Request Not Supported).
    public nonisolated let database: GATTDatabase?
    /// The ATT transaction timeout of this device's GATT clients (30 s, Core v5.4 Vol 3 Part F §3.3.3).
    public nonisolated let attTransactionTimeout: Duration
    var writeObservers: [UInt64: AsyncStream<AttributeWrite>.Continuation] = [:]
    var nextObserverID: UInt64 = 1

    public init(host: HCIHost, database: GATTDatabase? = nil, attTransactionTimeout: Duration = .seconds(30)) {
        self.host = host
        self.database = database
        self.attTransactionTimeout = attTransactionTimeout
    }

    /// Initializes the controller (HCI Reset and reads) unless it already is, and starts routing events.
    @discardableResult
    public func start() async throws(RoleError) -> ControllerInfo {
        if dispatcher == nil {
            let events = await host.events()
            dispatcher = Task(executorPreference: host.loop) { [weak self] in
                for await event in events {
                    guard let self else { return }
                    await self.dispatch(event)
                }
                await self?.hostEnded()
            }
        }
        if let info = await host.controllerInfo, await host.state == .poweredOn { return info }
        do {
            return try await host.initialize()
        } catch {
            throw .host(error)
        }
    }

    /// Stops routing and closes the host's transport.
    public func close() async {
        dispatcher?.cancel()
        dispatcher = nil
        await host.close()
    }

    /// Connections that peers make to this device while it advertises, as they complete.
    public func incomingConnections() -> AsyncStream<LEConnection> {
        let (stream, continuation) = AsyncStream<LEConnection>.makeStream()
        incomingContinuation?.finish()
        incomingContinuation = continuation
        return stream
    }

    func dispatch(_ event: HostEvent) async {
        switch event {
        case .hci(.le(.advertisingReports(let reports))):
            for report in reports { scanReport(report) }
        case .hci(.le(.connectionComplete(let complete))):
            await connectionCompleted(complete)
        case .hci(.disconnectionComplete(let complete)) where complete.status == .success:
            if let connection = connections.removeValue(forKey: complete.handle) {
                await connection.ended(reason: complete.reason)
                if connection.role == .peripheral { await readvertiseIfWanted() }
            }
        case .hci(.le(.connectionUpdateComplete(let status, let handle, let interval, let latency, let timeout))):
            await connections[handle]?.parametersUpdated(status: status, interval: interval, latency: latency, timeout: timeout)
        case .aclPDU(let handle, let pdu):
            await connections[handle]?.received(pdu: pdu)
        case .connectionsCleared(let handles, let why):
            for handle in handles {
                if let connection = connections.removeValue(forKey: handle) {
                    await connection.ended(reason: .connectionTerminatedByLocalHost, note: why)
                }
            }
            advertising = nil
        default:
            break
        }
    }

    func hostEnded() async {
        for connection in connections.values { await connection.ended(reason: .connectionTerminatedByLocalHost, note: "transport closed") }
        connections.removeAll()
        finishScan()
        pendingConnect?.fail(.host(.transportClosed(await host.closedReason ?? HCITransportError(.closedByHost, "closed"))))
        pendingConnect = nil
        incomingContinuation?.finish()
    }

    func connectionCompleted(_ complete: LEConnectionComplete) async {
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
