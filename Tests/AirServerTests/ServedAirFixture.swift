@testable import AirServer
import DeviceControl
import Foundation
@testable import HCIPackets
@testable import EventLoops
@testable import HCITransports
@testable import HostCore
@testable import Roles
@testable import Rigs
import Synchronization
import TestSupport

/// A served air on rigs/simulated.json with a unix socket (and a control socket) in a fresh temp
/// directory, its log lines kept for assertions.
///
/// The air runs on virtual time, as one drive from the accessories' first boot to the server's close
/// (`SimulatedAirServer.run`): while the air, its accessories, the server or the sockets' loops compute,
/// time stands still, and when all of them wait it jumps to the next of their deadlines. Our hosts (`device()`)
/// are on the other ends of its sockets, where virtual time cannot see them: they keep their deadlines on a
/// stepped clock (`hostTime`) that the test never moves, so no host deadline can fire early while a packet
/// crosses a socket — a host waits for what the air does, and the air's clock (`clock`) is what the test
/// measures.
struct ServedAirFixture {
    let server: SimulatedAirServer
    let rig: Rig
    let directory: URL
    let log: LogLines
    /// The clock our hosts keep their deadlines on: stepped, never moved.
    let hostTime: VirtualTime

    var socketPath: String { directory.appendingPathComponent("air").path }
    var controlPath: String { directory.appendingPathComponent("ctl").path }
    /// The served air's (virtual) clock.
    var clock: LoopClock { server.clock }

    static func rig() throws -> Rig { try Rig.load(path: repositoryRoot.appendingPathComponent("rigs/simulated.json").path) }

    /// Runs `body` with a served air on virtual time; closes the server and removes its directory after.
    static func with<T: Sendable>(powerFollows: [PowerFollow] = [], sysfs: SysfsRoot = SysfsRoot(), maximumConnections: Int = 16,
                                  controlLimits: ControlLimits = ControlLimits(),
                                  _ body: (ServedAirFixture) async throws -> T) async throws -> T {
        let rig = try rig()
        // Short paths: sun_path holds 107 bytes.
        let directory = URL(fileURLWithPath: "/tmp/hil-serve-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = LogLines()
        let options = SimulatedAirServer.Options(listen: [.unix(path: directory.appendingPathComponent("air").path)],
                                                 control: .unix(path: directory.appendingPathComponent("ctl").path),
                                                 powerFollows: powerFollows, sysfs: sysfs, maximumConnections: maximumConnections,
                                                 controlLimits: controlLimits, time: .virtual,
                                                 log: log.logger(echoing: directory.lastPathComponent))
        return try await withSteppedTime { hostTime in
            try await SimulatedAirServer.run(rig: rig, options: options) { server in
                log.stamp(on: server.clock)
                return try await body(ServedAirFixture(server: server, rig: rig, directory: directory, log: log, hostTime: hostTime))
            }
        }
    }

    /// A host of ours on a fresh served controller.
    func device() async throws -> LEDevice { try await deviceAndInfo().device }

    /// A host of ours on a fresh served controller, and what it read of the controller.
    func deviceAndInfo() async throws -> (device: LEDevice, info: ControllerInfo) {
        let device = LEDevice(host: try host(unix: socketPath))
        let info = try await device.start()
        return (device, info)
    }

    /// A host (not started) on the Unix socket at `path`, keeping its deadlines on `hostTime`.
    func host(unix path: String) throws -> HCIHost {
        try HCIHost(transport: SteppedSocketTransport(try FileDescriptorTransport.unix(path: path, moniker: "unix:\(path)"), clock: hostTime.clock))
    }
}

/// A socket transport whose host keeps its deadlines on `clock` (a test's stepped clock) rather than on
/// real time, as a socket's own transport does.
final class SteppedSocketTransport: HCITransport {
    let socket: FileDescriptorTransport
    let clock: LoopClock

    init(_ socket: FileDescriptorTransport, clock: LoopClock) {
        self.socket = socket
        self.clock = clock
    }

    var moniker: String { socket.moniker }
    func start(on loop: EventLoop, receive: @escaping @Sendable (HCITransportEvent) -> Void) throws(HCITransportError) {
        try socket.start(on: loop, receive: receive)
    }
    func send(_ packet: HCIPacket) throws(HCITransportError) { try socket.send(packet) }
    func close() { socket.close() }
}
