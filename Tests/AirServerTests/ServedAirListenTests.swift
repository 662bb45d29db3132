@testable import AirServer
import Foundation
@testable import HCI
@testable import Rigs
import Testing
import TestSupport

/// The other ways to join the served air: loopback TCP, and claiming one of the rig's named controllers.
@Suite(.serialized) struct ServedAirListenTests {
    static func rig() throws -> Rig { try Rig.load(path: repositoryRoot.appendingPathComponent("rigs/simulated.json").path) }

    @Test func aHostJoinsOverLoopbackTCP() async throws {
        let echo = ProcessInfo.processInfo.environment["HIL_TEST_SERVE_LOG"] == "1"
        let server = try await SimulatedAirServer.start(rig: try Self.rig(), options: .init(listen: [.tcp(host: "127.0.0.1", port: 0)], log: { line in
            if echo { FileHandle.standardError.write(Data("[tcp] \(line)\n".utf8)) }
        }))
        guard case .tcp(_, let port) = try #require(server.addresses.first) else { Issue.record("not tcp"); return }
        #expect(server.readyLine == "serving 3 controllers' air on tcp:127.0.0.1:\(port) (no control socket)")
        let transport = try FileDescriptorTransport.tcp(host: "127.0.0.1", port: port, moniker: "tcp-client:127.0.0.1:\(port)")
        let device = LEDevice(host: try HCIHost(transport: transport))
        let info = try await device.start()
        #expect(info.address == BDAddress("00:AA:5E:00:00:01"))
        _ = try await device.find(ScanFilter(name: "HIL-HRM"), timeout: .seconds(1))
        await device.close()
        await server.shutdown()
    }

    @Test func aConnectionCanClaimTheRigsCentralOneHostAtATime() async throws {
        let path = "/tmp/hil-claim-\(UUID().uuidString.prefix(8))"
        let log = LogLines()
        let server = try await SimulatedAirServer.start(rig: try Self.rig(), options: .init(
            listen: [], controllerListens: [.init(controller: "central", address: .unix(path: path))], log: { log.append($0) }))
        let first = LEDevice(host: try HCIHost(transport: try FileDescriptorTransport.unix(path: path, moniker: "unix:\(path)")))
        let info = try await first.start()
        #expect(info.address == BDAddress("00:48:49:4C:00:01"), "the rig's central controller's BD_ADDR")
        // A second host is turned away while the first holds it.
        let second = try #require(SocketOptions.connectUnix(path))
        #expect(try await offPool { readsEndOfStream(second, within: .seconds(2)) })
        _ = SocketOptions.closeDescriptor(second)
        #expect(log.all.contains { $0.contains("refused") && $0.contains("in use by another host") }, "\(log.all)")
        await first.close()
        // Once it is free (power-cycled), the next host gets it fresh.
        #expect(await eventually(within: .seconds(2)) { await !server.isClaimed("central") })
        #expect(server.runtime.world.controller(named: "central")?.isPoweredOn == true)
        let third = LEDevice(host: try HCIHost(transport: try FileDescriptorTransport.unix(path: path, moniker: "unix:\(path)")))
        #expect(try await third.start().address == BDAddress("00:48:49:4C:00:01"))
        await third.close()
        await server.shutdown()
    }

    @Test func aLiveSocketIsNotTakenOverAndAStaleOneIsReplaced() async throws {
        let path = "/tmp/hil-live-\(UUID().uuidString.prefix(8))"
        let first = try ListeningSocket(.unix(path: path))
        #expect(throws: SimServeError.self) { try ListeningSocket(.unix(path: path)) }
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
        #expect { try ListeningSocket(.unix(path: path)) } throws: { ($0 as? SimServeError)?.isUsage == true }
    }
}
