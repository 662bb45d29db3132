import Support
import EventLoops
import HostCore
// The GATT client of one ATT bearer.

/// The GATT client for ONE ATT bearer (Core v5.4 Vol 3 Part G §4 over the ATT
/// of Vol 3 Part F), talking through byte-level hooks so it knows nothing of
/// L2CAP or the host:
///
/// ```swift
/// let client = GATTClient(loop: host.loop, send: { pdu in try await attChannel.send(pdu) })
/// // for every PDU arriving on the ATT channel:   await client.receive(pdu)
/// // when the connection ends:                    await client.bearerClosed("0x13 Remote User Terminated Connection")
/// let tree = try await client.discoverAll()
/// ```
///
/// Requests go out one at a time (§3.3.2: one outstanding request per bearer),
/// the others wait in order. Each has the ATT transaction timeout (30 s, §3.3.3;
/// `transactionTimeout` overrides it); when it runs out the request fails with
/// `ATTError.timeout` and the bearer is closed for good — no more PDUs, every
/// queued request fails — as §3.3.3 requires. `bearerClosed(_:)` fails the
/// outstanding and queued requests at once with its reason. Notifications and
/// indications reach `notifications(handle:)` streams in arrival order;
/// indications are confirmed automatically.
///
/// Server-bound PDUs (requests, commands, confirmations) should go to an
/// `ATTServer` when the bearer has one; if they reach the client, it answers an
/// Exchange MTU Request with `preferredMTU` and any other request with Request Not Supported.
public actor GATTClient {
    /// The ATT transaction timeout of Vol 3 Part F §3.3.3.
    public static let defaultTransactionTimeout: Duration = .seconds(30)

    /// Sends one ATT PDU on the bearer.
    public typealias Send = @Sendable ([UInt8]) async throws -> Void
    /// Told of each protocol violation by the server (the host's record, for a test case to find).
    public typealias ReportViolation = @Sendable (ProtocolViolation) async -> Void

    let send: Send
    let reportViolation: ReportViolation?
    /// How long a request may wait for its response.
    public let transactionTimeout: Duration
    /// The receive MTU this client offers in Exchange MTU.
    public let preferredMTU: Int
    /// The ATT_MTU in use: 23 until an MTU exchange.
    public internal(set) var mtu: Int = ATTServer.defaultMTU
    /// Whether an MTU exchange has happened on this bearer (it may happen once).
    public internal(set) var hasExchangedMTU = false
    /// Why the bearer closed, once it has.
    public internal(set) var closedReason: String?
    /// PDUs that arrived with nothing to match them (responses with no request
    /// outstanding, undecodable PDUs outside a transaction), for diagnostics.
    public internal(set) var unmatchedPDUs: [String] = []
    /// What the server sent against the protocol, with its bytes (the first `HCIHost.maximumViolations`).
    public internal(set) var violations: [ProtocolViolation] = []
    /// Value handles this client subscribed to or listens on; notifications for others count toward a flood.
    var listenedHandles: Set<UInt16> = []
    /// The octets of the last response that answered a request, as they arrived (evidence for a violation
    /// found once the response is read).
    var lastResponseBytes: [UInt8] = []
    var listensToAll = false
    /// Notifications and indications for handles nobody subscribed to or listens on.
    var unsolicitedNotifications = 0
    /// How many unsolicited notifications make a flood (a violation of Vol 3 Part G §3.3.3.3).
    public static let notificationFloodThreshold = 50

    struct Transaction {
        let id: UInt64
        let request: ATTPDU
        let continuation: CheckedContinuation<Result<ATTPDU, ATTError>, Never>
        var started: ContinuousClock.Instant?
        var timer: Task<Void, Never>?
        var receivedInstead: [String] = []
    }

    enum Purpose {
        case request(UInt64)
        case unacknowledged
        case command(CheckedContinuation<Result<Void, ATTError>, Never>, ATTPDU)
    }

    /// The loop the client runs on (its serial executor: the host's, so that a response is handled where
    /// it arrived) and whose clock its transaction deadlines run on.
    public nonisolated let loop: EventLoop
    public nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }
    nonisolated var clock: LoopClock { loop.clock }
    var queue: [Transaction] = []
    var outstanding: Transaction?
    var nextID: UInt64 = 1
    var outbox: [(bytes: [UInt8], purpose: Purpose)] = []
    var pumping = false
    var streams: [UInt64: (handle: UInt16?, continuation: AsyncStream<GATTNotification>.Continuation)] = [:]
    /// Callers of `queued(atLeast:)`, each waiting for the queue to hold that many requests.
    var queueWatchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// A client whose PDUs go out through `send`. `transactionTimeout` defaults to
    /// the 30 s of §3.3.3, on `loop`'s clock (virtual time on a simulated bench); `preferredMTU` is offered
    /// in Exchange MTU (23…517). The client runs on `loop`; `reportViolation` hears of every protocol violation.
    public init(transactionTimeout: Duration = GATTClient.defaultTransactionTimeout,
                preferredMTU: Int = ATTServer.maximumSupportedMTU, loop: EventLoop,
                reportViolation: ReportViolation? = nil, send: @escaping Send) {
        self.send = send
        self.reportViolation = reportViolation
        self.loop = loop
        self.transactionTimeout = transactionTimeout
        self.preferredMTU = min(0xFFFF, max(ATTServer.defaultMTU, preferredMTU))
    }

    /// Whether the bearer is closed (disconnection or transaction timeout).
    public var isClosed: Bool { closedReason != nil }

    /// Sets the ATT_MTU when the exchange was handled by this bearer's `ATTServer`
    /// (the peer sent Exchange MTU); clamped to 23…`preferredMTU`.
    public func updateMTU(_ mtu: Int) {
        self.mtu = min(preferredMTU, max(ATTServer.defaultMTU, mtu))
        hasExchangedMTU = true
    }

    // MARK: Input from the bearer

    /// Hands the client one PDU that arrived on the ATT channel. Call it for every
    /// PDU, in order. Never traps: undecodable or unexpected PDUs fail the
    /// outstanding request (if they look like its response) or are recorded in `unmatchedPDUs`.
    public func receive(_ bytes: [UInt8]) {
        guard closedReason == nil, let first = bytes.first else { return }
        let opcode = ATTOpcode(first)
        if bytes.count > mtu {
            // Vol 3 Part F §3.2.9: no PDU is longer than the ATT_MTU.
            let violation = violated("\(opcode) of \(bytes.count) octets exceeds the ATT_MTU of \(mtu) (Vol 3 Part F §3.2.9)", bytes)
            if opcode.isResponse, let current = outstanding {
                finish(current.id, .failure(.protocolViolation(request: current.request, violation)))
            }
            return
        }
        let pdu: ATTPDU
        do {
            pdu = try ATTPDU(decoding: bytes)
        } catch {
            violated("malformed \(error)", bytes)
            if opcode.isResponse, let current = outstanding {
                finish(current.id, .failure(.malformedResponse(request: current.request, error)))
            } else {
                note("undecodable: \(error)")
            }
            return
        }
        switch pdu {
        case .handleValueNotification(let handle, let value):
            countUnsolicited([handle], bytes)
            deliver(GATTNotification(handle: handle, value: value))
        case .multipleHandleValueNotification(let list):
            countUnsolicited(list.map(\.handle), bytes)
            for entry in list { deliver(GATTNotification(handle: entry.handle, value: entry.value)) }
        case .handleValueIndication(let handle, let value):
            countUnsolicited([handle], bytes)
            deliver(GATTNotification(handle: handle, value: value, isIndication: true))
            // Vol 3 Part G §4.11: the client confirms every indication.
            enqueue(ATTPDU.handleValueConfirmation.encoded(), .unacknowledged)
        case .exchangeMTURequest(let clientMTU):
            enqueue(ATTPDU.exchangeMTUResponse(serverRxMTU: UInt16(preferredMTU)).encoded(), .unacknowledged)
            updateMTU(min(preferredMTU, Int(clientMTU)))
        default:
            if pdu.isResponse {
                matchResponse(pdu, bytes)
            } else if pdu.isRequest || pdu.isUnknownRequest {
                // Vol 3 Part F §3.4.1.1: a request nobody serves gets Request Not Supported.
                enqueue(ATTPDU.errorResponse(request: pdu.opcode, handle: 0, error: .requestNotSupported).encoded(),
                        .unacknowledged)
            } else {
                note("ignored: \(pdu)")
            }
        }
    }

    /// The bearer is gone (disconnection, channel closed): fails the outstanding and
    /// every queued request at once with `reason`, ends every notification stream,
    /// and refuses further requests.
    public func bearerClosed(_ reason: String) {
        close(reason: reason) { transaction, elapsed in
            .disconnected(request: transaction.request, reason: reason, after: elapsed)
        }
    }

    // MARK: Transactions

    /// Sends `request` when the bearer is free and returns its response (never an
    /// Error Response: that becomes `ATTError.errorResponse`).
    func transact(_ request: ATTPDU) async throws(ATTError) -> ATTPDU {
        if let closedReason { throw .bearerClosed(request: request, reason: closedReason) }
        let id = nextID
        nextID += 1
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<ATTPDU, ATTError>, Never>) in
                // The bearer may have closed while this task got here (the host fuzzer's find: a request queued
                // after the close waited for ever).
                if let closedReason {
                    continuation.resume(returning: .failure(.bearerClosed(request: request, reason: closedReason)))
                    return
                }
                queue.append(Transaction(id: id, request: request, continuation: continuation))
                startNextIfIdle()
                queueChanged()
            }
        } onCancel: {
            Task(executorPreference: loop) { [weak self] in await self?.cancelQueued(id) }
        }
        return try result.get()
    }

    private func startNextIfIdle() {
        guard outstanding == nil, closedReason == nil, !queue.isEmpty else { return }
        var next = queue.removeFirst()
        next.started = clock.now
        let id = next.id
        let timeout = transactionTimeout
        let clock = clock
        next.timer = Task(executorPreference: loop) { [weak self] in
            try? await Task.sleep(for: timeout, clock: clock)
            guard !Task.isCancelled else { return }
            await self?.timerFired(id)
        }
        outstanding = next
        enqueue(next.request.encoded(), .request(id))
    }

    /// Completes transaction `id` if it is the outstanding one and starts the next.
    func finish(_ id: UInt64, _ result: Result<ATTPDU, ATTError>) {
        guard var current = outstanding, current.id == id else { return }
        current.timer?.cancel()
        current.timer = nil
        outstanding = nil
        current.continuation.resume(returning: result)
        startNextIfIdle()
    }

    private func matchResponse(_ pdu: ATTPDU, _ bytes: [UInt8]) {
        guard let current = outstanding else {
            violated("unsolicited \(pdu.opcode): no request outstanding (Vol 3 Part F §3.3.2)", bytes)
            note("no request outstanding: \(pdu)")
            return
        }
        if case .errorResponse(let request, let handle, let code) = pdu, request == current.request.opcode {
            finish(current.id, .failure(.errorResponse(request: current.request, handle: handle, code: code)))
        } else if pdu.opcode == current.request.expectedResponseOpcode {
            lastResponseBytes = bytes
            finish(current.id, .success(pdu))
        } else {
            violated("\(pdu.opcode) in answer to \(current.request.opcode)", bytes)
            finish(current.id, .failure(.unexpectedResponse(request: current.request, received: pdu)))
        }
    }

    /// Records a protocol violation by the server and reports it; returns it for the error it goes into.
    @discardableResult
    func violated(_ what: String, _ bytes: [UInt8]) -> ProtocolViolation {
        let violation = ProtocolViolation(.att, what, bytes: bytes)
        if violations.count < HCIHost.maximumViolations { violations.append(violation) }
        if let reportViolation { Task(executorPreference: loop) { await reportViolation(violation) } }
        return violation
    }

    /// Counts notifications for handles nobody subscribed to or listens on; the `notificationFloodThreshold`th
    /// is a violation (Vol 3 Part G §3.3.3.3: a server notifies only a client that configured it).
    private func countUnsolicited(_ handles: [UInt16], _ bytes: [UInt8]) {
        guard !listensToAll, handles.contains(where: { !listenedHandles.contains($0) }) else { return }
        unsolicitedNotifications += 1
        guard unsolicitedNotifications == Self.notificationFloodThreshold else { return }
        violated("notification flood: \(unsolicitedNotifications) notifications for handles the client never subscribed to "
            + "(Vol 3 Part G §3.3.3.3)", bytes)
    }

    private func timerFired(_ id: UInt64) {
        guard let current = outstanding, current.id == id else { return }
        let elapsed = current.started.map { $0.duration(to: clock.now) } ?? transactionTimeout
        let request = current.request
        finish(id, .failure(.timeout(request: request, after: elapsed, receivedInstead: current.receivedInstead)))
        let reason = "ATT transaction timeout: \(request) got no response within \(formatDuration(elapsed))"
        close(reason: reason) { transaction, _ in .bearerClosed(request: transaction.request, reason: reason) }
    }

    private func cancelQueued(_ id: UInt64) {
        guard let index = queue.firstIndex(where: { $0.id == id }) else { return }
        let transaction = queue.remove(at: index)
        transaction.continuation.resume(returning: .failure(.cancelled(request: transaction.request)))
    }

    private func close(reason: String, _ error: (Transaction, Duration?) -> ATTError) {
        guard closedReason == nil else { return }
        closedReason = reason
        if let current = outstanding {
            let elapsed = current.started.map { $0.duration(to: clock.now) }
            finish(current.id, .failure(error(current, elapsed)))
        }
        let waiting = queue
        queue = []
        for transaction in waiting { transaction.continuation.resume(returning: .failure(error(transaction, nil))) }
        let pending = outbox
        outbox = []
        for item in pending { failOutgoing(item.purpose, reason: reason) }
        let open = streams
        streams = [:]
        for stream in open.values { stream.continuation.finish() }
        queueChanged()
    }

    /// Records a PDU nothing waited for; also lists it for the outstanding request's timeout message.
    private func note(_ text: String) {
        if unmatchedPDUs.count >= 32 { unmatchedPDUs.removeFirst() }
        unmatchedPDUs.append(text)
        if outstanding != nil, outstanding?.receivedInstead.count ?? 0 < 8 { outstanding?.receivedInstead.append(text) }
    }

    // MARK: Outgoing PDUs, strictly in order

    func enqueue(_ bytes: [UInt8], _ purpose: Purpose) {
        outbox.append((bytes, purpose))
        guard !pumping else { return }
        pumping = true
        // On the loop: `send` is a nonisolated closure, which would otherwise run on the global pool, out
        // of virtual time's sight.
        Task(executorPreference: loop) { await self.pump() }
    }

    private func pump() async {
        while !outbox.isEmpty {
            let item = outbox.removeFirst()
            if let closedReason {
                failOutgoing(item.purpose, reason: closedReason)
                continue
            }
            do {
                try await send(item.bytes)
                if case .command(let continuation, _) = item.purpose { continuation.resume(returning: .success(())) }
            } catch {
                switch item.purpose {
                case .request(let id):
                    if let current = outstanding, current.id == id {
                        finish(id, .failure(.sendFailed(request: current.request, reason: "\(error)")))
                    }
                case .command(let continuation, let pdu):
                    continuation.resume(returning: .failure(.sendFailed(request: pdu, reason: "\(error)")))
                case .unacknowledged:
                    break
                }
            }
        }
        pumping = false
    }

    private func failOutgoing(_ purpose: Purpose, reason: String) {
        if case .command(let continuation, let pdu) = purpose {
            continuation.resume(returning: .failure(.bearerClosed(request: pdu, reason: reason)))
        }
        // Requests are failed through their transaction; unacknowledged PDUs are dropped.
    }

    /// Sends a command (no response) in order with everything else; returns once it was handed to `send`.
    func sendCommand(_ pdu: ATTPDU) async throws(ATTError) {
        if let closedReason { throw .bearerClosed(request: pdu, reason: closedReason) }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, ATTError>, Never>) in
            enqueue(pdu.encoded(), .command(continuation, pdu))
        }
        try result.get()
    }

    // MARK: Notifications

    func deliver(_ notification: GATTNotification) {
        if outstanding != nil, outstanding?.receivedInstead.count ?? 0 < 8 {
            outstanding?.receivedInstead.append(notification.description)
        }
        for stream in streams.values where stream.handle == nil || stream.handle == notification.handle {
            stream.continuation.yield(notification)
        }
    }

    /// Notifications and indications as they arrive, for one characteristic value
    /// handle or (nil) all of them. The stream ends when the bearer closes (at once
    /// if it already has); cancelling its consumer ends only this stream.
    public func notifications(handle: UInt16? = nil) -> AsyncStream<GATTNotification> {
        let (stream, continuation) = AsyncStream.makeStream(of: GATTNotification.self, bufferingPolicy: .unbounded)
        guard closedReason == nil else {
            continuation.finish()
            return stream
        }
        let id = nextID
        nextID += 1
        streams[id] = (handle, continuation)
        if let handle { listenedHandles.insert(handle) } else { listensToAll = true }
        let loop = loop
        continuation.onTermination = { [weak self] _ in
            Task(executorPreference: loop) { await self?.removeStream(id) }
        }
        return stream
    }

    private func removeStream(_ id: UInt64) {
        streams[id] = nil
    }
}

extension ATTPDU {
    /// An opcode this stack does not know, without the Command Flag: a request to refuse.
    var isUnknownRequest: Bool {
        if case .unknown(let opcode, _) = self { return !opcode.isCommand }
        return false
    }
}
