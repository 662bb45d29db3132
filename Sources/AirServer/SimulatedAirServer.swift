import DeviceControl
import Foundation
import HCI
import Rigs
import Simulation

/// `hil sim serve`: a rig's simulated bench whose air is served as H4 controllers, so any host stack
/// (ours, Bumble, BlueZ's kernel through a vhci bridge, the kernel tier's emulated USB dongle) joins the
/// air the rig's simulated accessories advertise on.
///
/// Each connection to a `listen` address gets a fresh simulated controller of its own (as btvirt's
/// server does), with its own public BD_ADDR; when the connection closes the controller leaves the air
/// as a powered-off one does, and its peers see Disconnection Complete with Connection Timeout (0x08)
/// after the link's supervision timeout. A `controllerListens` address hands its connection one of the
/// rig's named controllers instead (one host at a time), power-cycled when the host leaves. The air runs
/// on real time whatever the rig's `timeScale` and `clock` say: it mixes real hosts.
public actor SimulatedAirServer {
    /// A listening address that claims one of the rig's controllers (`--listen-controller central=unix:PATH`).
    public struct ControllerListen: Sendable, Hashable {
        public let controller: String
        public let address: ServeAddress
        public init(controller: String, address: ServeAddress) {
            self.controller = controller
            self.address = address
        }
    }

    public struct Options: Sendable {
        public var listen: [ServeAddress]
        public var controllerListens: [ControllerListen]
        public var control: ServeAddress?
        public var powerFollows: [PowerFollow]
        /// The sysfs tree `powerFollows` reads (`/sys`; a fake tree in tests).
        public var sysfs: SysfsRoot
        /// At most this many H4 connections at once (btvirt's limit is 16); more are closed at once.
        public var maximumConnections: Int
        /// Where diagnostics go, one line each (stderr for the CLI).
        public var log: @Sendable (String) -> Void

        public init(listen: [ServeAddress], controllerListens: [ControllerListen] = [], control: ServeAddress? = nil,
                    powerFollows: [PowerFollow] = [], sysfs: SysfsRoot = SysfsRoot(), maximumConnections: Int = 16,
                    log: @escaping @Sendable (String) -> Void) {
            self.listen = listen
            self.controllerListens = controllerListens
            self.control = control
            self.powerFollows = powerFollows
            self.sysfs = sysfs
            self.maximumConnections = maximumConnections
            self.log = log
        }
    }

    public nonisolated let runtime: SimulatedRigRuntime
    nonisolated let options: Options
    /// The addresses actually bound (with the kernel's port for `tcp:…:0`), in the order given.
    public nonisolated let addresses: [ServeAddress]
    public nonisolated let controlAddress: ServeAddress?
    /// Yields once for each request to stop (`quit`, a signal the CLI forwards); the CLI then calls `shutdown()`.
    public nonisolated let stopRequests: AsyncStream<String>
    private nonisolated let stopSink: AsyncStream<String>.Continuation

    var listeners: [ListeningSocket] = []
    var connections: [Int: ServedConnection] = [:]
    var nextConnection = 1
    var channels: [Int: LineChannel] = [:]
    var nextChannel = 1
    var followers: [Task<Void, Never>] = []
    /// Rig controllers a connection holds, from its accept until its power cycle after it ends.
    var claimedControllers: Set<String> = []
    var shuttingDown = false
    /// The request being carried out: requests run one at a time, in arrival order.
    var tail: Task<Void, Never>?

    /// Loads nothing itself: takes a loaded rig, brings up its simulated runtime with every accessory
    /// powered (those that follow a USB device only when it is present), binds every address and starts
    /// accepting. Usage errors (a rig without a simulation, an unknown accessory or controller) have
    /// `isUsage`; a socket that cannot be bound does not.
    public static func start(rig: Rig, options: Options) async throws(SimServeError) -> SimulatedAirServer {
        guard rig.simulation != nil else {
            throw SimServeError("rig \(rig.name): it has no simulation block: nothing to serve", usage: true)
        }
        // Its hosts are other processes, whose waits virtual time cannot see.
        let rig = rig.onRealTime { scale in
            options.log("hil sim serve: rig \(rig.name): timeScale \(scale) ignored: the served air runs on real time")
        }
        let runtime: SimulatedRigRuntime
        do {
            runtime = try SimulatedRigRuntime(rig: rig)
        } catch {
            throw SimServeError("\(error)", usage: true)
        }
        let firmwareControllers = Set(runtime.accessories.values.map(\.controller.name))
        for follow in options.powerFollows where runtime.accessories[follow.accessory] == nil {
            await runtime.shutdown()
            throw SimServeError("--power-follows \(follow.accessory)=\(follow.location): \(Self.unknownAccessory(follow.accessory, runtime))", usage: true)
        }
        for claim in options.controllerListens {
            guard runtime.world.controller(named: claim.controller) != nil, !firmwareControllers.contains(claim.controller) else {
                await runtime.shutdown()
                let free = runtime.world.controllerNames.filter { !firmwareControllers.contains($0) }
                throw SimServeError("--listen-controller \(claim.controller)=\(claim.address): the rig has no free controller named '\(claim.controller)' (free: \(free.isEmpty ? "none" : free.joined(separator: ", ")); the others run accessory firmware)", usage: true)
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
            await runtime.shutdown()
            throw SimServeError("rig \(rig.name): an accessory did not boot: \(error)")
        }
        var bound: [(ListeningSocket, String?)] = []
        do throws(SimServeError) {
            for address in options.listen { bound.append((try ListeningSocket(address), nil)) }
            for claim in options.controllerListens { bound.append((try ListeningSocket(claim.address), claim.controller)) }
            if let control = options.control { bound.append((try ListeningSocket(control), "\u{0}control")) }
        } catch {
            for (socket, _) in bound { socket.close() }
            await runtime.shutdown()
            throw error
        }
        let server = SimulatedAirServer(runtime: runtime, options: options, bound: bound)
        await server.begin(bound)
        return server
    }

    private init(runtime: SimulatedRigRuntime, options: Options, bound: [(ListeningSocket, String?)]) {
        self.runtime = runtime
        self.options = options
        self.addresses = bound.filter { $0.1 != "\u{0}control" }.map(\.0.address)
        self.controlAddress = bound.first { $0.1 == "\u{0}control" }?.0.address
        (stopRequests, stopSink) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
    }

    private func begin(_ bound: [(ListeningSocket, String?)]) {
        for (socket, role) in bound {
            listeners.append(socket)
            let address = socket.address
            if role == "\u{0}control" {
                socket.start { [weak self] fd in
                    guard let self else { _ = SocketOptions.closeDescriptor(fd); return }
                    Task { await self.controlClient(fd) }
                }
            } else {
                socket.start { [weak self] fd in
                    guard let self else { _ = SocketOptions.closeDescriptor(fd); return }
                    Task { await self.accepted(fd, on: address, claim: role) }
                }
            }
        }
        for follow in options.powerFollows { followers.append(watch(follow)) }
    }

    /// `serving 3 controllers' air on unix:/tmp/hil-air (control unix:/tmp/hil-air.ctl)`: printed once
    /// the server accepts connections, for scripts to wait on.
    public nonisolated var readyLine: String {
        let control = controlAddress.map { "control \($0)" } ?? "no control socket"
        return "serving \(runtime.world.controllers.count) controllers' air on \(addresses.map(\.description).joined(separator: ", ")) (\(control))"
    }

    /// Asks the server's owner to stop (what `quit` does).
    public nonisolated func requestStop(_ why: String) { stopSink.yield(why) }

    // MARK: Shutdown

    /// Stops accepting, closes every connection and control client, removes the socket files and shuts
    /// the bench down. Waits at most 2 s for connections to finish closing.
    public func shutdown() async {
        guard !shuttingDown else { return }
        shuttingDown = true
        for follower in followers { follower.cancel() }
        followers.removeAll()
        for listener in listeners { listener.close() }
        listeners.removeAll()
        for connection in connections.values { connection.close(why: "the served air is shutting down") }
        for channel in channels.values { channel.stop() }
        let deadline = ContinuousClock.now.advanced(by: .seconds(2))
        while (!connections.isEmpty || !channels.isEmpty) && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        if !connections.isEmpty {
            options.log("hil sim serve: \(connections.count) connection(s) had not finished closing after 2 s")
        }
        await tail?.value
        await runtime.shutdown()
        stopSink.finish()
    }
}
