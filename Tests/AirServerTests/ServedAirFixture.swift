@testable import AirServer
import DeviceControl
import Foundation
@testable import HCI
@testable import Rigs
import Synchronization
import TestSupport

/// A served air on rigs/simulated.json with a unix socket (and a control socket) in a fresh temp
/// directory, its log lines kept for assertions.
struct ServedAirFixture {
    let server: SimulatedAirServer
    let rig: Rig
    let directory: URL
    let log: LogLines

    var socketPath: String { directory.appendingPathComponent("air").path }
    var controlPath: String { directory.appendingPathComponent("ctl").path }

    static func start(powerFollows: [PowerFollow] = [], sysfs: SysfsRoot = SysfsRoot()) async throws -> ServedAirFixture {
        let rig = try Rig.load(path: repositoryRoot.appendingPathComponent("rigs/simulated.json").path)
        // Short paths: sun_path holds 107 bytes.
        let directory = URL(fileURLWithPath: "/tmp/hil-serve-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let log = LogLines()
        // HIL_TEST_SERVE_LOG=1 also prints the server's lines, to diagnose a failure in a stress loop.
        let echo = ProcessInfo.processInfo.environment["HIL_TEST_SERVE_LOG"] == "1"
        let options = SimulatedAirServer.Options(listen: [.unix(path: directory.appendingPathComponent("air").path)],
                                                 control: .unix(path: directory.appendingPathComponent("ctl").path),
                                                 powerFollows: powerFollows, sysfs: sysfs, log: { line in
                                                     log.append(line)
                                                     if echo { FileHandle.standardError.write(Data("[\(directory.lastPathComponent)] \(line)\n".utf8)) }
                                                 })
        let server = try await SimulatedAirServer.start(rig: rig, options: options)
        return ServedAirFixture(server: server, rig: rig, directory: directory, log: log)
    }

    /// A host of ours on a fresh served controller.
    func device() async throws -> LEDevice { try await deviceAndInfo().device }

    /// A host of ours on a fresh served controller, and what it read of the controller.
    func deviceAndInfo() async throws -> (device: LEDevice, info: ControllerInfo) {
        let transport = try FileDescriptorTransport.unix(path: socketPath, moniker: "unix:\(socketPath)")
        let device = LEDevice(host: try HCIHost(transport: transport))
        let info = try await device.start()
        return (device, info)
    }

    func stop() async {
        await server.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Lines a server logged.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// Runs a blocking call (a socket read with a deadline) on a Dispatch thread, never on Swift's
/// cooperative pool: a blocked pool thread on a 2-core machine stalls the server under test.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}
