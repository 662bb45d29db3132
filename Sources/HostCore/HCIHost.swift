import HCIPackets
import EventLoops
import HCITransports
import Synchronization
/// Hears host events synchronously on the host's loop; `nil` when the transport has ended.
public typealias HostListener = @Sendable (HostEvent?) -> Void

/// The host side of one controller (Core v5.4 Vol 4 Part E): command flow control, opcode-matched
/// completions with deadlines, event subscriptions, the connection table and LE ACL flow control.
///
/// The actor runs on its own `EventLoop` thread, which also reads the transport, so a controller's
/// answer is decoded and handed to the waiting caller without a thread hop. Every wait has a deadline;
/// a closed transport fails every pending wait at once with a named error.
///
/// Code that makes many calls in a row (a transition, a benchmark) runs fastest inside
/// `host.run { … }`, which prefers the host's loop as the task executor: a controller's answer then
/// resumes the caller on the loop without a detour through the global pool.
public actor HCIHost {
    /// The loop this host (and its transport) runs on.
    public nonisolated let loop: EventLoop
    public nonisolated let transport: any HCITransport
    /// The deadline of a command that names none.
    public nonisolated let defaultCommandTimeout: Duration

    public nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    /// The adapter's state (Core Bluetooth's `CBManagerState` cases).
    public internal(set) var state: AdapterState = .unknown
    /// Open connections by handle.
    public internal(set) var connections: [UInt16: HCIConnection] = [:]
    /// What the controller reported about itself at the last initialization.
    public internal(set) var controllerInfo: ControllerInfo?
    /// Why the transport closed, once it has.
    public internal(set) var closedReason: HCITransportError?
    /// Anomalies seen: undecodable packets, unexpected completions.
    public internal(set) var anomalies: [String] = []
    /// What peers sent against the protocol on this host's links, in order (at most `maximumViolations`).
    public internal(set) var protocolViolations: [ProtocolViolation] = []

    var commandCredits = 1
    var commandQueue: [PendingCommand] = []
    var sentCommands: [PendingCommand] = []
    var nextWaitID: UInt64 = 1
    var eventWaiters: [EventWaiter] = []
    /// The streams of `events()`.
    var subscribers = Observers<HostEvent>()
    /// In the order they began to listen.
    var listeners: [(id: UInt64, listener: HostListener)] = []
    var recentEvents: [HCIEvent] = []
    var aclFlow = ACLFlowControl()
    var reassembler = ACLReassembler()
    var started = false

    /// The random static address this host's users advertise, scan and connect with instead of the controller's
    /// public address, when whoever opened the controller found that address shared by other controllers or
    /// zero (Core v5.4 Vol 6 Part B §1.3: a public address must be unique to the device); nil: the public one.
    /// It outlives HCI Reset, which clears the controller's random address: users set it before each use.
    public nonisolated var staticRandomAddress: BDAddress? { substitute.withLock { $0 } }
    private nonisolated let substitute = Mutex<BDAddress?>(nil)

    /// Sets `staticRandomAddress`; a non-nil address must be a valid random static address.
    public nonisolated func useStaticRandomAddress(_ address: BDAddress?) {
        precondition(address.map { $0.isStaticRandom && $0.hasValidRandomPart } ?? true, "not a random static address")
        substitute.withLock { $0 = address }
    }

    /// Whether the host started its loop (and so ends it), rather than sharing its transport's.
    private nonisolated let ownsLoop: Bool

    /// Creates a host on a new event loop, or on its transport's shared loop (a simulated world on virtual
    /// time runs on one thread). Call `start()` (or `initialize()`) next.
    public init(transport: any HCITransport, commandTimeout: Duration = .seconds(2)) throws(EventLoopError) {
        if let shared = transport.sharedLoop {
            self.loop = shared
            self.ownsLoop = false
        } else {
            self.loop = try EventLoop(label: "hci-host \(transport.moniker)", clock: transport.clock)
            self.ownsLoop = true
        }
        self.transport = transport
        self.defaultCommandTimeout = commandTimeout
    }

    deinit {
        transport.close()
        if ownsLoop { loop.shutdown() }
    }

    /// Runs `body` with the host's loop as the preferred task executor (see the type's documentation).
    public nonisolated func run<T: Sendable, Failure: Error>(_ body: () async throws(Failure) -> T) async throws(Failure) -> T {
        try await withTaskExecutorPreference(loop, operation: body)
    }

    /// Runs `body` isolated to the host on its loop soon, from any thread (a timer, a cancellation handler).
    nonisolated func onLoop(_ body: @escaping @Sendable (isolated HCIHost) -> Void) {
        loop.execute { [weak self] in
            guard let self else { return }
            self.assumeIsolated(body)
        }
    }

    /// Starts reading from the transport.
    public func start() throws(HCIError) {
        guard !started else { return }
        if let closedReason { throw .transportClosed(closedReason) }
        started = true
        do {
            try transport.start(on: loop) { [weak self] event in
                guard let self else { return }
                self.assumeIsolated { host in host.handleTransport(event) }
            }
        } catch {
            transportEnded(error)
            throw .transportClosed(error)
        }
    }

    /// Closes the transport; every pending wait fails with `transportClosed`.
    public func close() {
        transport.close()
        if closedReason == nil { transportEnded(HCITransportError(.closedByHost, "\(transport.moniker): closed by the host")) }
    }

    /// A stream of everything the host sees, from now until the stream's consumer stops.
    public func events() -> AsyncStream<HostEvent> {
        if let closedReason {
            let (stream, continuation) = AsyncStream<HostEvent>.makeStream()
            continuation.yield(.stateChanged(state))
            continuation.yield(.anomaly("transport closed: \(closedReason)"))
            continuation.finish()
            return stream
        }
        return subscribers.stream(removingOn: loop) { [weak self] id in await self?.removeSubscriber(id) }
    }

    func removeSubscriber(_ id: UInt64) { subscribers.remove(id) }

    /// Calls `listener` on the host's loop with every host event as the host handles it, in order, before
    /// any caller the event resumes runs — and with `nil` once when the transport ends. For the roles on
    /// top (LEDevice), whose view must never lag the host's. Returns an ID for `stopListening`.
    public func listen(_ listener: @escaping HostListener) -> UInt64 {
        let id = nextWaitID
        nextWaitID += 1
        if closedReason != nil {
            listener(nil)
            return id
        }
        listeners.append((id, listener))
        return id
    }

    public func stopListening(_ id: UInt64) { listeners.removeAll { $0.id == id } }

    func publish(_ event: HostEvent) {
        for entry in listeners { entry.listener(event) }
        subscribers.yield(event)
    }

    func setState(_ newState: AdapterState) {
        guard newState != state else { return }
        let leavingPoweredOn = state == .poweredOn
        state = newState
        publish(.stateChanged(newState))
        if leavingPoweredOn { clearConnections(why: "adapter left poweredOn (now \(newState))") }
    }

    /// Ends one link the controller dropped without a Disconnection Complete: as `clearConnections`, for `handle`.
    func clearConnection(_ handle: UInt16, why: String) {
        connections[handle] = nil
        reassembler.drop(handle: handle)
        aclFlow.drop(handle: handle, failing: .unsupported("connection dropped: \(why)"))
        publish(.connectionsCleared(handles: [handle], why: why))
    }

    func clearConnections(why: String) {
        let handles = connections.keys.sorted()
        connections.removeAll()
        reassembler.dropAll()
        aclFlow.dropAll(failing: .unsupported("connection dropped: \(why)"))
        if !handles.isEmpty { publish(.connectionsCleared(handles: handles, why: why)) }
    }
}
