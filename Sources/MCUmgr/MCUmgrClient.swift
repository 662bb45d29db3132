import CBOR
import EventLoops
import GATT
import Roles

/// The central's side of MCUmgr SMP over GATT: requests written to the SMP characteristic, responses reassembled
/// from its notifications. Every request has a deadline on the link's loop clock (virtual time on a simulated
/// bench) that names what was awaited, and honours cancellation. Runs on the link's loop.
package actor MCUmgrClient {
    package nonisolated let link: LEConnection
    /// The SMP characteristic on the peer.
    package nonisolated let characteristic: GATTServiceTree.Characteristic
    /// The deadline of a request that names none.
    package let timeout: Duration
    private let notifications: AsyncStream<GATTNotification>
    private var reassembler = MCUmgrReassembler()
    private var sequence: UInt8 = 0
    /// Whole messages received and not yet handed out.
    private var received: [[UInt8]] = []
    private var closedBy: String?

    package nonisolated var unownedExecutor: UnownedSerialExecutor { link.host.loop.asUnownedSerialExecutor() }

    private init(link: LEConnection, characteristic: GATTServiceTree.Characteristic, notifications: AsyncStream<GATTNotification>,
                 timeout: Duration) {
        self.link = link
        self.characteristic = characteristic
        self.notifications = notifications
        self.timeout = timeout
    }

    /// Finds the SMP characteristic on the peer of `link` and subscribes to its notifications.
    package static func connect(on link: LEConnection, timeout: Duration = .seconds(5)) async throws(MCUmgrError) -> MCUmgrClient {
        let tree: GATTServiceTree
        let stream: AsyncStream<GATTNotification>
        do {
            tree = try await link.gatt.discoverAll()
            guard let characteristic = tree.characteristic(MCUmgrService.characteristic) else {
                throw MCUmgrError.notFound("the peer has no MCUmgr SMP characteristic \(MCUmgrService.characteristic) (services: "
                                           + tree.services.map { "\($0.uuid)" }.joined(separator: ", ") + ")")
            }
            guard characteristic.properties.contains(.notify), characteristic.properties.contains(.writeWithoutResponse) else {
                throw MCUmgrError.notFound("the MCUmgr SMP characteristic lacks Write Without Response or notify (properties: \(characteristic.properties))")
            }
            stream = try await link.gatt.subscribe(to: characteristic, indications: false)
            return MCUmgrClient(link: link, characteristic: characteristic, notifications: stream, timeout: timeout)
        } catch let error as MCUmgrError {
            throw error
        } catch let error as ATTError {
            throw .att(error)
        } catch {
            throw .notFound("\(error)")
        }
    }

    func nextSequence() -> UInt8 {
        defer { sequence &+= 1 }
        return sequence
    }

    private func reassemble(_ fragment: [UInt8]) -> [[UInt8]] { reassembler.append(fragment) }

    /// What a wait for the device's next message gave.
    enum Received: Sendable {
        case message(MCUmgrMessage)
        case malformed(MCUmgrMessageError)
        /// The link ended (its notification stream finished).
        case ended
        /// The deadline passed, or the caller was cancelled.
        case none
    }

    /// Writes `message` to the SMP characteristic in pieces of ATT_MTU − 3 octets.
    func send(_ message: MCUmgrMessage) async throws(MCUmgrError) {
        if let closedBy { throw .closed(closedBy) }
        do {
            let size = await link.gatt.mtu - 3
            for fragment in MCUmgrService.fragments(message.encoded, size: size) {
                try await link.gatt.writeWithoutResponse(handle: characteristic.valueHandle, value: fragment)
            }
        } catch {
            throw .att(error)
        }
    }

    /// The device's next whole message, whatever it answers, awaited until `deadline` on the loop's clock. Messages
    /// one notification completed beyond the first are kept for the next call.
    func receive(until deadline: ContinuousClock.Instant) async -> Received {
        if !received.isEmpty { return Self.decode(received.removeFirst()) }
        let loop = link.host.loop
        let stream = notifications, handle = characteristic.valueHandle
        let messages: [[UInt8]]? = await untilDeadline(loop.now.duration(to: deadline), on: loop) { [self] in
            for await notification in stream where notification.handle == handle {
                let messages = await self.reassemble(notification.value)
                if !messages.isEmpty { return messages }
            }
            return Task.isCancelled ? nil : []
        }
        guard let messages else { return .none }
        guard let first = messages.first else { return .ended }
        received += messages.dropFirst()
        return Self.decode(first)
    }

    private static func decode(_ bytes: [UInt8]) -> Received {
        do throws(MCUmgrMessageError) {
            return .message(try MCUmgrMessage(decoding: bytes))
        } catch {
            return .malformed(error)
        }
    }

    /// Why no response came before the deadline: closes the client (its response stream has ended).
    func missed(_ received: Received, awaited: String, timeout: Duration) async -> MCUmgrError {
        switch received {
        case .malformed(let error):
            return .malformed(error, awaited: awaited)
        case .ended:
            closedBy = "the link ended while awaiting \(awaited)"
            return .silent(awaited: awaited, timeout: timeout, instead: "the link ended")
        case .message, .none:
            closedBy = "a wait for \(awaited) ended without it"
            if Task.isCancelled { return .cancelled(awaited: awaited) }
            let instead = await link.isConnected ? "the link stayed up and the device said nothing" : "the link ended"
            return .silent(awaited: awaited, timeout: timeout, instead: instead)
        }
    }

    /// The failure a response names, as `.refused` naming `request`.
    static func check(_ response: MCUmgrMessage, request: String, awaited: String) throws(MCUmgrError) {
        let failure: MCUmgrFailure?
        do throws(MCUmgrMessageError) {
            failure = try response.failure()
        } catch {
            throw .malformed(error, awaited: awaited)
        }
        if let failure { throw .refused(failure, request: request) }
    }

    /// Sends the request `build` makes with the next sequence number and returns the device's response to it (a
    /// response with another sequence number, left from an earlier request, is passed over). A failure the
    /// response names is `.refused`; nothing within `timeout` (the client's own when nil) is `.silent`, naming
    /// `awaited`. After a deadline or a cancellation this client's response stream has ended: open another.
    package func request(_ awaited: String, timeout: Duration? = nil,
                        _ build: (UInt8) -> MCUmgrMessage) async throws(MCUmgrError) -> MCUmgrMessage {
        let message = build(nextSequence())
        try await send(message)
        let limit = timeout ?? self.timeout
        let deadline = link.host.loop.now + limit
        while true {
            let received = await receive(until: deadline)
            guard case .message(let response) = received else { throw await missed(received, awaited: awaited, timeout: limit) }
            guard response.answers(message) else { continue }
            try Self.check(response, request: awaited.replacing(" response", with: ""), awaited: awaited)
            return response
        }
    }
}

extension MCUmgrClient {
    /// OS management echo: the text the device echoes.
    package func echo(_ text: String, timeout: Duration? = nil) async throws(MCUmgrError) -> String {
        let response = try await request("echo response", timeout: timeout) { MCUmgrRequest.echo(text, sequence: $0) }
        guard let echoed = response.body["r"]?.text else { throw .malformed(.field("r", expected: "text", got: response.body["r"]), awaited: "echo response") }
        return echoed
    }

    /// Image management state: the images in their slots as the device reports them.
    package func imageStates(timeout: Duration? = nil) async throws(MCUmgrError) -> [MCUmgrImageState] {
        let response = try await request("image state response", timeout: timeout) { MCUmgrRequest.imageState(sequence: $0) }
        do throws(MCUmgrMessageError) {
            return try MCUmgrImageState.list(in: response.body)
        } catch {
            throw .malformed(error, awaited: "image state response")
        }
    }

    /// Marks the image with `hash` for test: MCUboot swaps it in at the next reset and reverts it at the one after
    /// unless it is confirmed. Returns the states the device reports after.
    package func test(hash: [UInt8], timeout: Duration? = nil) async throws(MCUmgrError) -> [MCUmgrImageState] {
        try await setState(hash: hash, confirm: false, timeout: timeout)
    }

    /// Confirms the image with `hash` (nil: the running one), so that it stays. Returns the states after.
    package func confirm(hash: [UInt8]? = nil, timeout: Duration? = nil) async throws(MCUmgrError) -> [MCUmgrImageState] {
        try await setState(hash: hash, confirm: true, timeout: timeout)
    }

    private func setState(hash: [UInt8]?, confirm: Bool, timeout: Duration?) async throws(MCUmgrError) -> [MCUmgrImageState] {
        let awaited = confirm ? "image confirm response" : "image test response"
        let response = try await request(awaited, timeout: timeout) { MCUmgrRequest.setImageState(hash: hash, confirm: confirm, sequence: $0) }
        do throws(MCUmgrMessageError) {
            return try MCUmgrImageState.list(in: response.body)
        } catch {
            throw .malformed(error, awaited: awaited)
        }
    }

    /// OS management reset: the device answers, then resets (the link ends).
    package func reset(timeout: Duration? = nil) async throws(MCUmgrError) {
        _ = try await request("reset response", timeout: timeout) { MCUmgrRequest.reset(sequence: $0) }
    }

    /// Image management erase of `slot` (nil: the device's default, the secondary slot).
    package func erase(slot: Int? = nil, timeout: Duration? = nil) async throws(MCUmgrError) {
        _ = try await request("image erase response", timeout: timeout) { MCUmgrRequest.erase(slot: slot, sequence: $0) }
    }
}
