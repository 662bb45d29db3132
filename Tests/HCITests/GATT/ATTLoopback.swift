import Testing
import TestSupport
@testable import HCI

/// A GATTClient and an ATTServer connected in memory: the client's `send` hands
/// bytes to the server and the server's responses go to `client.receive`, with
/// an optional delay, dropping, or rewriting of responses.
actor ATTLoopback {
    var server: ATTServer
    private(set) var client: GATTClient?
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

    init(database: GATTDatabase, maximumMTU: Int = 517) {
        server = ATTServer(database: database, maximumMTU: maximumMTU)
    }

    /// A loopback and its client.
    static func connect(_ database: GATTDatabase, timeout: Duration = .seconds(30), clientMTU: Int = 517,
                        serverMTU: Int = 517) async throws -> (ATTLoopback, GATTClient) {
        let loopback = ATTLoopback(database: database, maximumMTU: serverMTU)
        let loop = try EventLoop(label: "att-loopback-client")
        let client = GATTClient(transactionTimeout: timeout, preferredMTU: clientMTU, loop: loop) { [loopback] bytes in
            await loopback.toServer(bytes)
        }
        await loopback.attach(client)
        return (loopback, client)
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
        guard var response = reply.response else { return }
        if let rewrite { response = rewrite(request, response) }
        if let left = responsesLeft {
            if left <= 0 { return }
            responsesLeft = left - 1
        }
        guard !dropResponses, let client else { return }
        if let delay = reply.delay ?? responseDelay {
            Task {
                try? await Task.sleep(for: delay)
                await self.deliver(response, to: client)
            }
        } else {
            await deliver(response, to: client)
        }
    }

    private func deliver(_ response: [UInt8], to client: GATTClient) async {
        outstanding -= 1
        await client.receive(response)
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

/// Waits for `condition` to hold, polling, for at most `timeout`.
func attEventually(timeout: Duration = .seconds(5), _ what: String,
                   _ condition: @Sendable () async -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while !(await condition()) {
        guard ContinuousClock.now < deadline else {
            throw ATTTestTimeout(description: "\(what) did not happen within \(formatDuration(timeout))")
        }
        try await Task.sleep(for: .milliseconds(2))
    }
}

struct ATTTestTimeout: Error, CustomStringConvertible {
    let description: String
}

/// The first `count` elements of `stream`, or an error naming how many came within `timeout`.
func attCollect<Element: Sendable>(_ stream: AsyncStream<Element>, count: Int,
                                   timeout: Duration = .seconds(5)) async throws -> [Element] {
    try await TestSupport.collect(stream, count: count, within: timeout, clock: ContinuousClock())
}
