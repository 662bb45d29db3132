import Support
import SocketServing
import DeviceControl
import Foundation
import EventLoops
import Rigs
import Simulation
import Synchronization

/// `hil sim serve`: a rig's simulated bench whose air is served as H4 controllers, so any host stack
/// (ours, Bumble, BlueZ's kernel through a vhci bridge, the kernel tier's emulated USB dongle) joins the
/// air the rig's simulated accessories advertise on.
///
/// Each connection to a `listen` address gets a fresh simulated controller of its own (as btvirt's
/// server does), with its own public BD_ADDR; when the connection closes the controller leaves the air
/// as a powered-off one does, and its peers see Disconnection Complete with Connection Timeout (0x08)
/// after the link's supervision timeout. A `controllerListens` address hands its connection one of the
/// rig's named controllers instead (one host at a time), power-cycled when the host leaves. The air runs
/// on real time whatever the rig's `timeScale` and `clock` say: it mixes real hosts — unless `Options.time`
/// asks for virtual time, for a test whose hosts keep their own time (see `run(rig:options:_:)`).
package actor SimulatedAirServer {
    /// A listening address that claims one of the rig's controllers (`--listen-controller central=unix:PATH`).
    package struct ControllerListen: Sendable, Hashable {
        package let controller: String
        package let address: ServeAddress
    }

    package struct Options: Sendable {
        package var listen: [ServeAddress]
        package var controllerListens: [ControllerListen]
        package var control: ServeAddress?
        package var powerFollows: [PowerFollow]
        /// The sysfs tree `powerFollows` reads (`/sys`; a fake tree in tests).
        package var sysfs: SysfsRoot
        /// At most this many H4 connections at once (btvirt's limit is 16); more are closed at once, each
        /// with a line in the log.
        package var maximumConnections: Int
        /// What each control client (of `control`) may hold of the server, and how many there may be.
        package var controlLimits: ControlLimits
        /// Where diagnostics go, one line each (stderr for the CLI).
        package var log: @Sendable (String) -> Void
        /// The time the air runs on: real (the default: its hosts are other processes, whose waits virtual time
        /// cannot see), or virtual, where time stands still while anything of the air, its accessories, its
        /// sockets' loops or the server computes, and jumps when all of them wait — for a test whose hosts keep
        /// their deadlines on a clock of the test's own. The rig's time scale is ignored either way.
        package var time: SimulationTiming.Clock

        package init(listen: [ServeAddress], controllerListens: [ControllerListen] = [], control: ServeAddress? = nil,
                    powerFollows: [PowerFollow] = [], sysfs: SysfsRoot = SysfsRoot(), maximumConnections: Int = 16,
                    controlLimits: ControlLimits = ControlLimits(), time: SimulationTiming.Clock = .real,
                    log: @escaping @Sendable (String) -> Void) {
            self.listen = listen
            self.controllerListens = controllerListens
            self.control = control
            self.powerFollows = powerFollows
            self.sysfs = sysfs
            self.maximumConnections = maximumConnections
            self.controlLimits = controlLimits
            self.time = time
            self.log = log
        }
    }

    package nonisolated let runtime: SimulatedRigRuntime
    nonisolated let options: Options
    /// The loop the server's own work runs on (its executor, and its tasks'): on virtual time the air's, so
    /// that the air's clock sees it; on real time one of the server's own.
    package nonisolated let loop: EventLoop
    /// Whether the server started `loop` (and so ends it).
    private nonisolated let ownsLoop: Bool
    package nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }
    /// The air's clock, which every loop of the server keeps time on.
    package nonisolated var clock: LoopClock { runtime.world.air.clock }
    /// Bumped whenever a connection or a control channel ends: what `shutdown()` waits for.
    nonisolated let closings = ChangeSignal()
    /// The addresses actually bound (with the kernel's port for `tcp:…:0`), in the order given.
    package nonisolated let addresses: [ServeAddress]
    package nonisolated let controlAddress: ServeAddress?
    /// Yields once for each request to stop (`quit`, a signal the CLI forwards); the CLI then calls `shutdown()`.
    package nonisolated let stopRequests: AsyncStream<String>
    private nonisolated let stopSink: AsyncStream<String>.Continuation

    var listeners: [ListeningSocket] = []
    var connections: [Int: ServedConnection] = [:]
    /// H4 connections counted against `maximumConnections`: claimed at the accept, before anything is
    /// awaited, and given back when the connection ends (or is refused after all).
    var connectionSlots = 0
    var nextConnection = 1
    var channels: [Int: LineChannel] = [:]
    var nextChannel = 1
    /// Control-socket clients counted against `controlLimits.maximumClients`.
    var controlClients = 0
    var nextControlClient = 1
    var followers: [Task<Void, Never>] = []
    /// Rig controllers a connection holds, from its accept until its power cycle after it ends.
    var claimedControllers: Set<String> = []
    var shuttingDown = false
    /// Set once `shutdown()` has shut the bench down.
    var benchShutDown = false
    /// The request being carried out: requests run one at a time, in arrival order.
    var tail: Task<Void, Never>?

    /// Loads nothing itself: takes a loaded rig, brings up its simulated runtime with every accessory
    /// powered (those that follow a USB device only when it is present), binds every address and starts
    /// accepting. Usage errors (a rig without a simulation, an unknown accessory or controller) have
    /// `isUsage`; a socket that cannot be bound does not. On virtual time the start is a drive of the air's
    /// clock (the accessories' boots take no real time); what comes after runs in the caller's drives.
    package static func start(rig: Rig, options: Options) async throws(ServeError) -> SimulatedAirServer {
        let runtime = try makeRuntime(rig: rig, options: options)
        let started = await runtime.world.air.clock.drive { () async -> Result<SimulatedAirServer, ServeError> in
            do throws(ServeError) {
                return .success(try await start(runtime, options: options))
            } catch {
                return .failure(error)
            }
        }
        switch started {
        case .success(let server):
            return server
        case .failure(let error):
            // After the drive: the bench's shutdown ends the loop a drive runs on.
            await runtime.shutdown()
            throw error
        }
    }

    /// Starts a server as `start(rig:options:)` does, runs `body` with it, and closes its sockets and
    /// connections; on virtual time all of it is one drive of the air's clock, so the test that calls it owns
    /// every instant of the served air, from the accessories' first boot on. The bench is shut down last,
    /// after the drive.
    package static func run<T: Sendable>(rig: Rig, options: Options, _ body: (SimulatedAirServer) async throws -> T) async throws -> T {
        let runtime = try makeRuntime(rig: rig, options: options)
        let outcome = await runtime.world.air.clock.drive { () async -> (SimulatedAirServer?, Result<T, any Error>) in
            let server: SimulatedAirServer
            do {
                server = try await start(runtime, options: options)
            } catch {
                return (nil, .failure(error))
            }
            // From here the server's shutdown shuts the bench down.
            let result: Result<T, any Error>
            do {
                result = .success(try await body(server))
            } catch {
                result = .failure(error)
            }
            await server.close()
            return (server, result)
        }
        // After the drive: the bench's shutdown ends the loop a drive runs on.
        if let server = outcome.0 { await server.shutdown() } else { await runtime.shutdown() }
        return try outcome.1.get()
    }

    /// The rig's simulated bench on the time `options` asks for (at a time scale of 1), not yet powered.
    static func makeRuntime(rig: Rig, options: Options) throws(ServeError) -> SimulatedRigRuntime {
        guard rig.simulation != nil else {
            throw ServeError("rig \(rig.name): it has no simulation block: nothing to serve", usage: true)
        }
        // Its hosts are other processes, whose waits virtual time cannot see (unless a test asks for it).
        var onTime = rig.onRealTime { scale in
            options.log("hil sim serve: rig \(rig.name): timeScale \(scale) ignored: the served air runs on \(options.time == .virtual ? "virtual" : "real") time")
        }
        onTime.simulation?.timing.clock = options.time
        do {
            return try SimulatedRigRuntime(rig: onTime)
        } catch {
            throw ServeError("\(error)", usage: true)
        }
    }

    /// Powers the runtime's accessories, binds every address and starts accepting (the body of `start`). On
    /// failure the caller shuts the runtime down, after its drive.
    private static func start(_ runtime: SimulatedRigRuntime, options: Options) async throws(ServeError) -> SimulatedAirServer {
        let rig = runtime.rig
        let firmwareControllers = Set(runtime.accessories.values.map(\.controller.name))
        for follow in options.powerFollows where runtime.accessories[follow.accessory] == nil {
            throw ServeError("--power-follows \(follow.accessory)=\(follow.location): \(Self.unknownAccessory(follow.accessory, runtime))", usage: true)
        }
        for claim in options.controllerListens {
            guard runtime.world.controller(named: claim.controller) != nil, !firmwareControllers.contains(claim.controller) else {
                let free = runtime.world.controllerNames.filter { !firmwareControllers.contains($0) }
                throw ServeError("--listen-controller \(claim.controller)=\(claim.address): the rig has no free controller named '\(claim.controller)' (free: \(free.isEmpty ? "none" : free.joined(separator: ", ")); the others run accessory firmware)", usage: true)
            }
        }
        let followed = Set(options.powerFollows.map(\.accessory))
        do {
            for (name, accessory) in runtime.accessories.sorted(by: { $0.key < $1.key }) {
                if followed.contains(name), let follow = options.powerFollows.first(where: { $0.accessory == name }),
                   !follow.isPresent(in: options.sysfs) {
                    await accessory.powerOff() // the bench builds every controller powered; this one's device is absent
                    continue
                }
                try await accessory.powerOn()
            }
        } catch {
            throw ServeError("rig \(rig.name): an accessory did not boot: \(error)")
        }
        var bound: [(ListeningSocket, String?)] = []
        let clock = runtime.world.air.clock
        let loop: EventLoop
        do throws(ServeError) {
            for address in options.listen { bound.append((try ListeningSocket(address, clock: clock), nil)) }
            for claim in options.controllerListens { bound.append((try ListeningSocket(claim.address, clock: clock), claim.controller)) }
            // Owner-only: a unix: control socket takes `quit` from its owner (and root) alone.
            if let control = options.control { bound.append((try ListeningSocket(control, clock: clock, ownerOnly: true), "\u{0}control")) }
            if clock.isVirtual {
                loop = runtime.world.air.loop
            } else {
                do {
                    loop = try EventLoop(label: "sim-serve")
                } catch {
                    throw ServeError("cannot start the server's event loop: \(error)")
                }
            }
        } catch {
            for (socket, _) in bound { socket.close() }
            throw error
        }
        let server = SimulatedAirServer(runtime: runtime, options: options, bound: bound, loop: loop, ownsLoop: !clock.isVirtual)
        await server.begin(bound)
        return server
    }

    private init(runtime: SimulatedRigRuntime, options: Options, bound: [(ListeningSocket, String?)], loop: EventLoop, ownsLoop: Bool) {
        self.runtime = runtime
        self.options = options
        self.loop = loop
        self.ownsLoop = ownsLoop
        self.addresses = bound.filter { $0.1 != "\u{0}control" }.map(\.0.address)
        self.controlAddress = bound.first { $0.1 == "\u{0}control" }?.0.address
        (stopRequests, stopSink) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
    }

    deinit {
        if ownsLoop { loop.shutdown() }
    }

    /// Runs `body` on the server's loop soon, as a task of the server's own (from a loop's callback).
    nonisolated func task(_ body: sending @escaping () async -> Void) {
        Task(executorPreference: loop, operation: body)
    }

    private func begin(_ bound: [(ListeningSocket, String?)]) {
        for (socket, role) in bound {
            listeners.append(socket)
            let address = socket.address
            if role == "\u{0}control" {
                socket.start { [weak self] fd in
                    guard let self else { _ = SocketOptions.closeDescriptor(fd); return }
                    task { await self.controlClient(fd, on: address) }
                }
            } else {
                socket.start { [weak self] fd in
                    guard let self else { _ = SocketOptions.closeDescriptor(fd); return }
                    task { await self.accepted(fd, on: address, claim: role) }
                }
            }
        }
        if !options.powerFollows.isEmpty { followers.append(watch(options.powerFollows)) }
    }

    /// `serving 3 controllers' air on unix:/tmp/hil-air (control unix:/tmp/hil-air.ctl)`: printed once
    /// the server accepts connections, for scripts to wait on.
    package nonisolated var readyLine: String {
        let control = controlAddress.map { "control \($0)" } ?? "no control socket"
        return "serving \(runtime.world.controllers.count) controllers' air on \(addresses.map(\.description).joined(separator: ", ")) (\(control))"
    }

    /// Asks the server's owner to stop (what `quit` does).
    package nonisolated func requestStop(_ why: String) { stopSink.yield(why) }

    // MARK: Shutdown

    /// Stops accepting, closes every connection and control client, removes the socket files and shuts
    /// the bench down. Waits at most 2 s (of the air's clock) for connections to finish closing.
    ///
    /// Not isolated to the server: on virtual time the server's executor is the air's loop, which ends with
    /// the bench, so nothing of the shutdown may come back to the server after it.
    package nonisolated func shutdown() async {
        guard await closeForShutdown() else { return }
        await runtime.shutdown()
        stopSink.finish()
    }

    /// `close()`, once, for `shutdown()`: false when the bench is shut down already (or being shut down).
    private func closeForShutdown() async -> Bool {
        guard !benchShutDown else { return false }
        benchShutDown = true
        await close()
        return true
    }

    /// What `shutdown()` does before it shuts the bench down: stops accepting, closes every connection and
    /// control client and removes the socket files, then waits for them to end (at most 2 s of the air's
    /// clock) and for the request under way.
    func close() async {
        guard !shuttingDown else { return }
        shuttingDown = true
        for follower in followers { follower.cancel() }
        followers.removeAll()
        for listener in listeners { listener.close() }
        listeners.removeAll()
        for connection in connections.values { connection.close(why: "the served air is shutting down") }
        for channel in channels.values { channel.stop() }
        let deadline = clock.now.advanced(by: .seconds(2))
        while !connections.isEmpty || !channels.isEmpty {
            let seen = closings.count
            guard clock.now < deadline else { break }
            if connections.isEmpty && channels.isEmpty { break }
            await closings.wait(after: seen, until: deadline, clock: clock)
        }
        if !connections.isEmpty {
            options.log("hil sim serve: \(connections.count) connection(s) had not finished closing after 2 s")
        }
        await tail?.value
    }
}

extension SimulatedAirServer.ControllerListen {
    /// Parses `NAME=ADDRESS` (`central=unix:/tmp/hil-central`).
    package init(parsing text: String) throws(ServeError) {
        guard let (name, addressText) = nameEqualsValue(text) else {
            throw ServeError("--listen-controller '\(text)': expected NAME=ADDRESS (e.g. central=unix:/tmp/hil-central)", usage: true)
        }
        self.init(controller: name, address: try ServeAddress(parsing: addressText))
    }
}
