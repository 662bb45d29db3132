import CBOR
import EventLoops
import GATT
import Roles

/// The central's side of MCUmgr SMP over GATT: requests written to the SMP characteristic, responses reassembled
/// from its notifications. Every request has a deadline on the link's loop clock (virtual time on a simulated
/// bench) that names what was awaited, and honours cancellation. Runs on the link's loop.
public actor MCUmgrClient {
    public nonisolated let link: LEConnection
    /// The SMP characteristic on the peer.
    public nonisolated let characteristic: GATTServiceTree.Characteristic
    /// The deadline of a request that names none.
    public let timeout: Duration
    private let notifications: AsyncStream<GATTNotification>
    private var reassembler = MCUmgrReassembler()
    private var sequence: UInt8 = 0
    private var closedBy: String?

    public nonisolated var unownedExecutor: UnownedSerialExecutor { link.host.loop.asUnownedSerialExecutor() }

    private init(link: LEConnection, characteristic: GATTServiceTree.Characteristic, notifications: AsyncStream<GATTNotification>,
                 timeout: Duration) {
        self.link = link
        self.characteristic = characteristic
        self.notifications = notifications
        self.timeout = timeout
    }

    /// Finds the SMP characteristic on the peer of `link` and subscribes to its notifications.
    public static func connect(on link: LEConnection, timeout: Duration = .seconds(5)) async throws(MCUmgrError) -> MCUmgrClient {
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

    private func nextSequence() -> UInt8 {
        defer { sequence &+= 1 }
        return sequence
    }

    private func reassemble(_ fragment: [UInt8]) -> [[UInt8]] { reassembler.append(fragment) }

    private enum Outcome: Sendable {
        case response(MCUmgrMessage)
        case malformed(MCUmgrMessageError)
        case ended
    }

    /// Sends the request `build` makes with the next sequence number and returns the device's response to it (a
    /// response with another sequence number, left from an earlier request, is passed over). A failure the
    /// response names is `.refused`; nothing within `timeout` (the client's own when nil) is `.silent`, naming
    /// `awaited`. After a deadline or a cancellation this client's response stream has ended: open another.
    public func request(_ awaited: String, timeout: Duration? = nil,
                        _ build: (UInt8) -> MCUmgrMessage) async throws(MCUmgrError) -> MCUmgrMessage {
        if let closedBy { throw .closed(closedBy) }
        let message = build(nextSequence())
        do {
            let size = await link.gatt.mtu - 3
            for fragment in MCUmgrService.fragments(message.encoded, size: size) {
                try await link.gatt.writeWithoutResponse(handle: characteristic.valueHandle, value: fragment)
            }
        } catch {
            throw .att(error)
        }
        let limit = timeout ?? self.timeout
        let loop = link.host.loop
        let stream = notifications, handle = characteristic.valueHandle
        let outcome: Outcome? = await untilDeadline(limit, on: loop) { [self] in
            for await notification in stream where notification.handle == handle {
                for bytes in await self.reassemble(notification.value) {
                    do throws(MCUmgrMessageError) {
                        let response = try MCUmgrMessage(decoding: bytes)
                        if response.answers(message) { return .response(response) }
                    } catch {
                        return .malformed(error)
                    }
                }
            }
            return Task.isCancelled ? nil : .ended
        }
        switch outcome {
        case .response(let response):
            let failure: MCUmgrFailure?
            do throws(MCUmgrMessageError) {
                failure = try response.failure()
            } catch {
                throw .malformed(error, awaited: awaited)
            }
            if let failure { throw .refused(failure, request: awaited.replacing(" response", with: "")) }
            return response
        case .malformed(let error):
            throw .malformed(error, awaited: awaited)
        case .ended:
            closedBy = "the link ended while awaiting \(awaited)"
            throw .silent(awaited: awaited, timeout: limit, instead: "the link ended")
        case nil:
            closedBy = "a wait for \(awaited) ended without it"
            if Task.isCancelled { throw .cancelled(awaited: awaited) }
            let instead = await link.isConnected ? "the link stayed up and the device said nothing" : "the link ended"
            throw .silent(awaited: awaited, timeout: limit, instead: instead)
        }
    }
}

extension MCUmgrClient {
    /// OS management echo: the text the device echoes.
    public func echo(_ text: String, timeout: Duration? = nil) async throws(MCUmgrError) -> String {
        let response = try await request("echo response", timeout: timeout) { MCUmgrRequest.echo(text, sequence: $0) }
        guard let echoed = response.body["r"]?.text else { throw .malformed(.field("r", expected: "text", got: response.body["r"]), awaited: "echo response") }
        return echoed
    }

    /// Image management state: the images in their slots as the device reports them.
    public func imageStates(timeout: Duration? = nil) async throws(MCUmgrError) -> [MCUmgrImageState] {
        let response = try await request("image state response", timeout: timeout) { MCUmgrRequest.imageState(sequence: $0) }
        do throws(MCUmgrMessageError) {
            return try MCUmgrImageState.list(in: response.body)
        } catch {
            throw .malformed(error, awaited: "image state response")
        }
    }

    /// Marks the image with `hash` for test: MCUboot swaps it in at the next reset and reverts it at the one after
    /// unless it is confirmed. Returns the states the device reports after.
    public func test(hash: [UInt8], timeout: Duration? = nil) async throws(MCUmgrError) -> [MCUmgrImageState] {
        try await setState(hash: hash, confirm: false, timeout: timeout)
    }

    /// Confirms the image with `hash` (nil: the running one), so that it stays. Returns the states after.
    public func confirm(hash: [UInt8]? = nil, timeout: Duration? = nil) async throws(MCUmgrError) -> [MCUmgrImageState] {
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
    public func reset(timeout: Duration? = nil) async throws(MCUmgrError) {
        _ = try await request("reset response", timeout: timeout) { MCUmgrRequest.reset(sequence: $0) }
    }

    /// Image management erase of `slot` (nil: the device's default, the secondary slot).
    public func erase(slot: Int? = nil, timeout: Duration? = nil) async throws(MCUmgrError) {
        _ = try await request("image erase response", timeout: timeout) { MCUmgrRequest.erase(slot: slot, sequence: $0) }
    }
}
