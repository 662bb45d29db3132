import Testing
import TestSupport
@testable import EventLoops
@testable import GATT

/// A GATTClient and an ATTServer connected in memory: the client's `send` hands
/// bytes to the server and the server's responses go to `client.receive`, with
/// an optional delay, dropping, or rewriting of responses.
///
/// All of it runs on one virtual clock (`run`): the client and this actor on one event loop of the clock,
/// delayed responses on that loop's timers, the test's body in the clock's drive. So a transaction
/// timeout fires at exactly its duration of the clock, a response delay is exactly the one set, and
/// neither depends on how loaded the machine is.
actor ATTLoopback {
    var server: ATTServer
    private(set) var client: GATTClient?
    /// The loop the client and this loopback run on, and its (virtual) clock.
    nonisolated let loop: EventLoop
    nonisolated var clock: LoopClock { loop.clock }
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }
    /// Delay before each response is delivered.
    var responseDelay: Duration?
    /// Responses are not delivered (the server still handles the requests).
    var dropResponses = false
    /// Deliver at most this many more responses, then drop the rest.
    var responsesLeft: Int?
    /// Replaces a response (given the request and the server's response) with other bytes.
    var rewrite: (@Sendable (_ request: ATTPDU, _ response: [UInt8]) -> [UInt8])?
    /// Every PDU the client sent, in order.
    private(set) var sent: [ATTPDU] = []
    /// Requests answered (or dropped) so far, and the most outstanding at once.
    private(set) var outstanding = 0
    private(set) var maximumOutstanding = 0
    private(set) var events: [ATTServer.Event] = []
    /// Callers of `untilSent`, each told (and forgotten) once what the client sent satisfies its condition.
    private var sentWatchers: [UInt64: (condition: @Sendable ([ATTPDU]) -> Bool, continuation: AsyncStream<Void>.Continuation)] = [:]
    private var nextWatcher: UInt64 = 0

    init(database: GATTDatabase, maximumMTU: Int = 517, loop: EventLoop) {
        server = ATTServer(database: database, maximumMTU: maximumMTU)
        self.loop = loop
    }

    /// Runs `body` with a loopback and its client on a fresh virtual clock (`withVirtualTime`): the client
    /// and the loopback on one loop of the clock, `body` in its drive. `timeout` is the client's ATT
    /// transaction timeout, on that clock.
    static func run<T: Sendable>(_ database: GATTDatabase, timeout: Duration = GATTClient.defaultTransactionTimeout,
                                 clientMTU: Int = 517, serverMTU: Int = 517,
                                 _ body: (ATTLoopback, GATTClient) async throws -> T) async throws -> T {
        try await withVirtualTime { clock in
            let loop = try EventLoop(label: "att-loopback", clock: clock)
            defer { loop.shutdown() }
            let loopback = ATTLoopback(database: database, maximumMTU: serverMTU, loop: loop)
            let client = GATTClient(transactionTimeout: timeout, preferredMTU: clientMTU, loop: loop) { [loopback] bytes in
                await loopback.toServer(bytes)
            }
            await loopback.attach(client)
            return try await body(loopback, client)
        }
    }

    func attach(_ client: GATTClient) { self.client = client }
    func set(responseDelay: Duration?) { self.responseDelay = responseDelay }
    func set(dropResponses: Bool) { self.dropResponses = dropResponses }
    func set(responsesLeft: Int?) { self.responsesLeft = responsesLeft }
    func set(rewrite: (@Sendable (ATTPDU, [UInt8]) -> [UInt8])?) { self.rewrite = rewrite }
    func configureServer(_ change: @Sendable (inout ATTServer) -> Void) { change(&server) }

    /// The client's send hook.
    func toServer(_ bytes: [UInt8]) async {
        let request = (try? ATTPDU(decoding: bytes)) ?? .unknown(opcode: ATTOpcode(bytes.first ?? 0), parameters: [])
        sent.append(request)
        if request.isRequest {
            outstanding += 1
            maximumOutstanding = max(maximumOutstanding, outstanding)
        }
        let reply = server.reply(to: bytes)
        events += reply.events
        // What the server made of the PDU is done: tell those waiting for it.
        tellSentWatchers()
        guard var response = reply.response else { return }
        if let rewrite { response = rewrite(request, response) }
        if let left = responsesLeft {
            if left <= 0 { return }
            responsesLeft = left - 1
        }
        guard !dropResponses, let client else { return }
        if let delay = reply.delay ?? responseDelay {
            // A timer of the loop, so the delay is exactly `delay` of the clock; the delivery is queued on the
            // loop from the timer itself, leaving no moment in which virtual time could jump past it.
            let (loop, delayed) = (loop, response)
            loop.schedule(after: delay) {
                Task(executorPreference: loop) { await self.deliver(delayed, to: client) }
            }
        } else {
            await deliver(response, to: client)
        }
    }

    private func deliver(_ response: [UInt8], to client: GATTClient) async {
        outstanding -= 1
        await client.receive(response)
    }

    /// Returns once the PDUs the client sent (all of them, in order) satisfy `condition` and the server
    /// has handled the last of them; throws naming `what` when they do not within `timeout` of the clock.
    /// What a test waits for here takes no time of the clock (nothing but computation), so the bound is
    /// only reached when the event never comes, and then at once in real time.
    func untilSent(_ what: String, within timeout: Duration = .seconds(5),
                   _ condition: @escaping @Sendable ([ATTPDU]) -> Bool) async throws {
        if condition(sent) { return }
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        let id = nextWatcher
        nextWatcher += 1
        sentWatchers[id] = (condition, continuation)
        defer { sentWatchers[id] = nil }
        _ = try await TestSupport.first(of: stream, within: timeout, clock: clock, what)
    }

    private func tellSentWatchers() {
        for (id, watcher) in sentWatchers where watcher.condition(sent) {
            sentWatchers[id] = nil
            watcher.continuation.yield()
            watcher.continuation.finish()
        }
    }

    /// The first `count` elements of `stream`, or an error naming how many came within `timeout` of the clock.
    nonisolated func collect<Element: Sendable>(_ stream: AsyncStream<Element>, count: Int,
                                                within timeout: Duration = .seconds(5)) async throws -> [Element] {
        try await TestSupport.collect(stream, count: count, within: timeout, clock: clock)
    }

    /// Starts `operation` in a task on the clock's loops (an unstructured task elsewhere would be invisible to
    /// virtual time), for a request the test wants in flight while it does something else.
    nonisolated func start<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) -> Task<T, any Error> {
        Task(executorPreference: clock.taskExecutor) { try await operation() }
    }

    /// The server notifies `value` (cut to the MTU) to the client.
    func notify(handle: UInt16, value: [UInt8]) async {
        await client?.receive(server.notification(handle: handle, value: value))
    }

    /// The server indicates `value`; returns false if an indication was still unconfirmed.
    @discardableResult
    func indicate(handle: UInt16, value: [UInt8]) async -> Bool {
        guard !server.isAwaitingConfirmation else { return false }
        await client?.receive(server.indication(handle: handle, value: value))
        return true
    }

    /// Bytes straight to the client, as a misbehaving server would send them.
    func inject(_ bytes: [UInt8]) async { await client?.receive(bytes) }

    var isAwaitingConfirmation: Bool { server.isAwaitingConfirmation }
    func isSubscribed(_ handle: UInt16) -> Bool { server.isSubscribed(handle) }
    var mtu: Int { server.mtu }
}
