@testable import SocketServing
@testable import Support
@testable import AirServer
import Foundation
@testable import HCIPackets
@testable import EventLoops
@testable import HCITransports
@testable import HostCore
@testable import Roles
@testable import Rigs
import Testing
import TestSupport

/// The other ways to join the served air: loopback TCP, and claiming one of the rig's named controllers —
/// on the air's virtual time, our hosts on a stepped clock of the test's (see `ServedAirFixture`).
@Suite struct ServedAirListenTests {
    /// Runs `body` with a served air on virtual time listening as `options` says, and the stepped clock our
    /// hosts keep their deadlines on.
    static func serve<T: Sendable>(_ options: SimulatedAirServer.Options,
                                   _ body: (SimulatedAirServer, LoopClock) async throws -> T) async throws -> T {
        var options = options
        options.time = .virtual
        let rig = try ServedAirFixture.rig()
        return try await withSteppedTime { hostTime in
            try await SimulatedAirServer.run(rig: rig, options: options) { server in try await body(server, hostTime.clock) }
        }
    }

    @Test func aHostJoinsOverLoopbackTCP() async throws {
        let log = LogLines()
        try await Self.serve(.init(listen: [.tcp(host: "127.0.0.1", port: 0)], log: log.logger(echoing: "tcp"))) { server, hostClock in
            guard case .tcp(_, let port) = try #require(server.addresses.first) else { Issue.record("not tcp"); return }
            #expect(server.readyLine == "serving 3 controllers' air on tcp:127.0.0.1:\(port) (no control socket)")
            let transport = try FileDescriptorTransport.tcp(host: "127.0.0.1", port: port, moniker: "tcp-client:127.0.0.1:\(port)")
            let device = LEDevice(host: try HCIHost(transport: SteppedSocketTransport(transport, clock: hostClock)))
            let info = try await device.start()
            #expect(info.address == BDAddress("00:AA:5E:00:00:01"))
            _ = try await device.find(ScanFilter(name: "HIL-HRM"), timeout: .seconds(1))
            await device.close()
        }
    }

    @Test func aConnectionCanClaimTheRigsCentralOneHostAtATime() async throws {
        let path = "/tmp/hil-claim-\(UUID().uuidString.prefix(8))"
        let log = LogLines()
        try await Self.serve(.init(listen: [], controllerListens: [.init(controller: "central", address: .unix(path: path))],
                                   log: log.logger(echoing: "claim"))) { server, hostClock in
            func host() throws -> LEDevice {
                LEDevice(host: try HCIHost(transport: SteppedSocketTransport(try FileDescriptorTransport.unix(path: path, moniker: "unix:\(path)"),
                                                                             clock: hostClock)))
            }
            let first = try host()
            let info = try await first.start()
            #expect(info.address == BDAddress("00:48:49:4C:00:01"), "the rig's central controller's BD_ADDR")
            // A second host is turned away while the first holds it.
            let second = try #require(SocketOptions.connectUnix(path))
            #expect(try await offPool { BlockingSocket.readsEndOfStream(second) })
            _ = SocketOptions.closeDescriptor(second)
            #expect(log.all.contains { $0.contains("refused") && $0.contains("in use by another host") }, "\(log.all)")
            await first.close()
            // Once it is free (power-cycled), the next host gets it fresh.
            _ = await log.line { $0.hasSuffix("the rig's controller 'central' is free again") }
            #expect(await !server.isClaimed("central"))
            #expect(server.runtime.world.controller(named: "central")?.isPoweredOn == true)
            let third = try host()
            #expect(try await third.start().address == BDAddress("00:48:49:4C:00:01"))
            await third.close()
        }
    }

    /// A controller that runs accessory firmware cannot be claimed: a usage error, and the bench the server
    /// had built is shut down after the drive it was started in (not inside it, where its end would end the drive's loop).
    @Test func claimingAnAccessorysControllerIsAUsageError() async throws {
        let path = "/tmp/hil-claim-\(UUID().uuidString.prefix(8))"
        await #expect {
            try await Self.serve(.init(listen: [], controllerListens: [.init(controller: "thermometer", address: .unix(path: path))],
                                       log: { _ in })) { _, _ in }
        } throws: { error in
            guard let error = error as? ServeError else { return false }
            return error.isUsage && error.description.contains("the rig has no free controller named 'thermometer'")
        }
        #expect(!FileManager.default.fileExists(atPath: path), "nothing was left listening")
    }

    @Test func aLiveSocketIsNotTakenOverAndAStaleOneIsReplaced() async throws {
        let path = "/tmp/hil-live-\(UUID().uuidString.prefix(8))"
        let first = try ListeningSocket(.unix(path: path))
        #expect(throws: ServeError.self) { try ListeningSocket(.unix(path: path)) }
        first.close()
        #expect(!FileManager.default.fileExists(atPath: path))
        // A stale socket file (nobody listening) is replaced.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (index, byte) in path.utf8.enumerated() { raw[index] = byte } }
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        close(fd)
        #expect(FileManager.default.fileExists(atPath: path))
        let replaced = try ListeningSocket(.unix(path: path))
        replaced.close()
        // A regular file is never replaced.
        #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect { try ListeningSocket(.unix(path: path)) } throws: { ($0 as? ServeError)?.isUsage == true }
    }
}
