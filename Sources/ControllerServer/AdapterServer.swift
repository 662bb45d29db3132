import Support
import SocketServing
import HCIPackets
import EventLoops
import HCITransports
import Synchronization

/// `hil serve`: one opened controller served as H4 on a listening socket to one host at a time, the way
/// Bumble's HCI bridge serves one, so a runner on another machine uses it as `tcp-client:HOST:PORT` (or a
/// host on this one as `unix:PATH`).
///
/// Bytes pass unchanged: the host's are framed (`SocketBridge`) and each whole packet goes to the
/// controller; the controller's packets are written to the host as H4. The controller is not reset here —
/// the host resets it, as it does whenever it opens a controller. A connection that arrives while a host
/// is served is accepted and closed at once with nothing sent (so its host fails at once instead of
/// waiting on the backlog), and `log` names it. When a host leaves, nothing is sent to either side: the
/// controller keeps the state the host left it in until the next host resets it, and what the controller
/// sends meanwhile is dropped. A host that leaves mid-packet never hands the controller half a packet.
/// When the controller goes away (unplugged, its transport closed or not taking bytes) the host is
/// closed and `stopRequests` yields `.adapterClosed`. A host that sends and receives nothing for
/// `idleTimeout` is closed, so that a forgotten or vanished host does not hold the controller for ever;
/// a vanished host on TCP is also found by keepalive (`SocketOptions.setKeepAlive`).
package final class AdapterServer: Sendable {
    /// Why the server's owner should stop it.
    package enum StopReason: Sendable {
        /// A signal (or a caller) asked.
        case requested(String)
        /// The controller went away; the server cannot serve any more.
        case adapterClosed(HCITransportError)
    }

    package struct Options: Sendable {
        /// The adapter's moniker, for lines and errors (`usb:0`, `sim:central`).
        package var name: String
        package var listen: ServeAddress
        /// How long the controller may take to answer the Read Local Version Information sent at start.
        package var answerTimeout: Duration
        /// How long a host may send and receive nothing before it is closed and the controller is free for
        /// the next one (`defaultIdleTimeout` unless asked).
        package var idleTimeout: Duration
        /// The clock the server's loops keep their deadlines on: real time, or a test's stepped clock.
        package var clock: LoopClock
        /// Where a host's arrival and departure are told (stdout for the CLI), one line each.
        package var announce: @Sendable (String) -> Void
        /// Where refusals and trouble go (stderr for the CLI), one line each.
        package var log: @Sendable (String) -> Void

        package init(name: String, listen: ServeAddress, answerTimeout: Duration = .seconds(2),
                    idleTimeout: Duration = AdapterServer.defaultIdleTimeout, clock: LoopClock = .real,
                    announce: @escaping @Sendable (String) -> Void, log: @escaping @Sendable (String) -> Void) {
            self.name = name
            self.listen = listen
            self.answerTimeout = answerTimeout
            self.idleTimeout = idleTimeout
            self.clock = clock
            self.announce = announce
            self.log = log
        }
    }

    /// Five minutes: longer than any one step of a test a host drives (it is silent only while it waits on
    /// something, and every wait of a suite is shorter), short enough that a runner that crashed or forgot
    /// its connection frees the bench before the next job gives up on it.
    package static let defaultIdleTimeout = Duration.seconds(300)

    /// The address actually bound (with the kernel's port for `tcp:…:0`).
    package let address: ServeAddress
    /// Yields for each request to stop and once when the adapter goes away; the owner then calls `shutdown()`.
    package let stopRequests: AsyncStream<StopReason>
    let options: Options
    let adapter: any HCITransport
    let adapterLoop: EventLoop
    private let stopSink: AsyncStream<StopReason>.Continuation
    private let listener: ListeningSocket
    let state = Mutex(State())
    /// Bumped when a host's connection has ended: what `shutdown()` waits for.
    let closings = ChangeSignal()

    struct State {
        /// The number of the host being served, claimed at its accept (before its bridge exists).
        var serving: Int?
        /// The host being served, once its bridge exists.
        var client: Client?
        var nextClient = 1
        var adapterGone: HCITransportError?
        var shuttingDown = false
        /// The answer to the start-up Read Local Version Information, while it is awaited.
        var answered: (@Sendable (Result<Void, HCITransportError>) -> Void)?
        /// The deadline of that answer, until it comes.
        var answerTimer: UInt64?
    }

    struct Client: Sendable {
        let number: Int
        let bridge: SocketBridge
        let attachment: AdapterAttachment
    }

    /// Starts the adapter's transport (it must be open and unstarted; the server owns it from here, and
    /// closes it when the start fails), checks that the controller answers, binds `options.listen` and
    /// starts accepting hosts. A bad address has `isUsage`; a controller that does not answer or a socket
    /// that cannot be bound does not.
    package static func start(adapter: any HCITransport, options: Options) async throws(ServeError) -> AdapterServer {
        let loop: EventLoop
        do {
            loop = try EventLoop(label: "serve-adapter", clock: options.clock)
        } catch {
            adapter.close()
            throw ServeError("\(options.name): cannot start its event loop: \(error)")
        }
        let listener: ListeningSocket
        do {
            listener = try ListeningSocket(options.listen, clock: options.clock)
        } catch {
            adapter.close()
            loop.shutdown()
            throw error
        }
        let server = AdapterServer(adapter: adapter, loop: loop, listener: listener, options: options)
        do {
            try await server.startAdapter()
            try await server.checkAnswers()
        } catch {
            await server.shutdown()
            throw error
        }
        listener.start { [weak server] fd in
            guard let server else { _ = SocketOptions.closeDescriptor(fd); return }
            server.accepted(fd)
        }
        return server
    }

    private init(adapter: any HCITransport, loop: EventLoop, listener: ListeningSocket, options: Options) {
        self.adapter = adapter
        self.adapterLoop = loop
        self.listener = listener
        self.options = options
        self.address = listener.address
        (stopRequests, stopSink) = AsyncStream.makeStream(of: StopReason.self, bufferingPolicy: .unbounded)
    }

    /// `serving usb:0 on tcp:127.0.0.1:9001`: printed once the server accepts hosts, for scripts to wait on.
    package var readyLine: String { "serving \(options.name) on \(address)" }

    /// Asks the server's owner to stop (what a signal does).
    package func requestStop(_ why: String) { stopSink.yield(.requested(why)) }

    /// Stops accepting (removing a Unix socket's file), closes the host being served and the adapter.
    /// Waits at most 2 s (of `options.clock`) for the host's connection to finish closing. Idempotent.
    package func shutdown() async {
        let (first, client) = state.withLock { state -> (Bool, Client?) in
            defer { state.shuttingDown = true }
            return (!state.shuttingDown, state.client)
        }
        guard first else { return }
        listener.close()
        client?.bridge.close(why: "the server is shutting down")
        let clock = options.clock
        let deadline = clock.now.advanced(by: .seconds(2))
        while true {
            let seen = closings.count
            guard state.withLock({ $0.client != nil }), clock.now < deadline else { break }
            await closings.wait(after: seen, until: deadline, clock: clock)
        }
        if state.withLock({ $0.client != nil }) { options.log("hil serve: the host's connection had not finished closing after 2 s") }
        adapterLoop.execute { [adapter] in adapter.close() }
        adapterLoop.shutdown()
        stopSink.finish()
    }

    // MARK: The adapter

    private func startAdapter() async throws(ServeError) {
        let result: Result<Void, HCITransportError> = await withCheckedContinuation { continuation in
            adapterLoop.execute { [self] in
                do throws(HCITransportError) {
                    try adapter.start(on: adapterLoop) { [self] event in fromAdapter(event) }
                    continuation.resume(returning: .success(()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        if case .failure(let error) = result { throw ServeError("\(options.name): \(error)") }
    }

    /// Sends HCI Read Local Version Information (Core v5.4 Vol 4 Part E §7.4.1), which any controller
    /// answers in any state without changing it, and waits `answerTimeout` for its Command Complete (or
    /// Command Status): a controller that does not answer is not served.
    private func checkAnswers() async throws(ServeError) {
        let timeout = options.answerTimeout
        let result: Result<Void, HCITransportError> = await withCheckedContinuation { continuation in
            let gone = state.withLock { state -> HCITransportError? in
                if let gone = state.adapterGone { return gone }
                state.answered = { result in continuation.resume(returning: result) }
                return nil
            }
            if let gone { return continuation.resume(returning: .failure(gone)) }
            // The deadline is armed (and kept, so that the answer cancels it) before the command goes out.
            let timer = adapterLoop.schedule(after: timeout) { [self] in
                let waiter = state.withLock { state in
                    defer { state.answered = nil }
                    return state.answered
                }
                let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
                waiter?(.failure(HCITransportError(.timeout, "the controller did not answer HCI Read Local Version Information within \(seconds) s (is it powered, and is the moniker right?)")))
            }
            state.withLock { $0.answerTimer = timer }
            adapterLoop.execute { [self] in toAdapter(.command(HCICommandPacket(opcode: .readLocalVersionInformation))) }
        }
        if case .failure(let error) = result { throw ServeError("\(options.name): \(error)") }
    }

    /// The start-up check's waiter, when `event` answers it.
    private func takeAnswerWaiter(for packet: HCIEventPacket) -> (@Sendable (Result<Void, HCITransportError>) -> Void)? {
        guard state.withLock({ $0.answered != nil }) else { return nil }
        switch try? HCIEvent(decoding: packet) {
        case .commandComplete(_, .readLocalVersionInformation, _)?, .commandStatus(_, _, .readLocalVersionInformation)?:
            let (answered, timer) = state.withLock { state in
                defer {
                    state.answered = nil
                    state.answerTimer = nil
                }
                return (state.answered, state.answerTimer)
            }
            // Its deadline goes with it: nothing is left armed on the loop but what serving needs.
            if let timer { adapterLoop.cancelTimer(timer) }
            return answered
        default:
            return nil
        }
    }

    /// On the adapter's loop: a packet goes to the host being served (or is dropped between hosts).
    private func fromAdapter(_ event: HCITransportEvent) {
        switch event {
        case .packet(let packet):
            if case .event(let event) = packet, let answered = takeAnswerWaiter(for: event) {
                answered(.success(()))
                return
            }
            state.withLock { $0.client?.attachment }?.deliver(packet)
        case .closed(let error):
            adapterGone(error)
        }
    }

    /// On the adapter's loop: a packet from the host being served.
    func toAdapter(_ packet: HCIPacket) {
        do throws(HCITransportError) {
            try adapter.send(packet)
        } catch {
            adapterGone(error)
            adapter.close()
        }
    }

    /// The controller went away: the host is closed and the owner told, once (not during shutdown).
    private func adapterGone(_ error: HCITransportError) {
        let (first, client, answered) = state.withLock { state -> (Bool, Client?, (@Sendable (Result<Void, HCITransportError>) -> Void)?) in
            guard state.adapterGone == nil else { return (false, nil, nil) }
            state.adapterGone = error
            defer { state.answered = nil }
            return (!state.shuttingDown, state.client, state.answered)
        }
        answered?(.failure(error))
        client?.attachment.adapterClosed(error)
        if first { stopSink.yield(.adapterClosed(error)) }
    }
}
