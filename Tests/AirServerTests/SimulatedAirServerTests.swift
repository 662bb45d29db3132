@testable import SocketServing
@testable import Support
@testable import AirServer
import Foundation
@testable import HCIPackets
@testable import Roles
@testable import Simulation
import Testing
import TestSupport

/// The served air with our own host stack on its unix socket: each connection is a fresh controller on
/// the rig's air, and a vanished peer is reported as a real radio does (0x08 after the supervision timeout),
/// at exactly the instant of the air's (virtual) clock the link's schedule gives (`ServedAirFixture`).
@Suite struct SimulatedAirServerTests {
    @Test func ourHostScansConnectsAndDiscoversTheRigsAccessory() async throws {
        try await ServedAirFixture.with { air in
            let central = try await air.device()
            let thermometer = try #require(air.rig.accessory(named: "thermometer"))
            let found = try await central.find(thermometer.match, timeout: air.rig.budgets.advertisingAfterPowerOn)
            #expect(found.address == BDAddress("C0:48:49:4C:00:02"), "the rig's thermometer controller advertises on the served air")
            let link = try await central.connect(matching: thermometer.match, scanTimeout: .seconds(2), parameters: air.rig.connectionParameters)
            let tree = try await link.gatt.discoverAll()
            for uuid in thermometer.expectedServices { #expect(tree.services.contains { $0.uuid == uuid }, "service \(uuid)") }
            #expect(try await link.disconnect() == .connectionTerminatedByLocalHost)
            await central.close()
        }
    }

    @Test func eachConnectionGetsAFreshControllerWithItsOwnAddress() async throws {
        try await ServedAirFixture.with { air in
            let (first, a) = try await air.deviceAndInfo()
            let (second, b) = try await air.deviceAndInfo()
            #expect(a.address != b.address, "two connections, two BD_ADDRs: \(a.address), \(b.address)")
            #expect(a.address != .zero && b.address != .zero)
            let onAir = await air.server.runtime.world.air.controllerNamesOnAir()
            #expect(onAir.filter { $0.hasPrefix("served-") }.count == 2)
            await first.close()
            // The server says the connection ended once its controller has left the air.
            _ = await air.log.line { $0.contains("connection 1 on ") && $0.hasSuffix(": the host closed it") }
            let left = await air.server.runtime.world.air.controllerNamesOnAir()
            #expect(left.filter { $0.hasPrefix("served-") } == ["served-2"], "a closed connection's controller leaves the air: \(left)")
            await second.close()
        }
    }

    @Test func powerOffOverTheControlProtocolIsAConnectionTimeoutAfterTheSupervisionTimeout() async throws {
        try await ServedAirFixture.with { air in
            let central = try await air.device()
            let rig = air.rig
            let thermometer = try #require(rig.accessory(named: "thermometer"))
            let link = try await central.connect(matching: thermometer.match, scanTimeout: .seconds(2), parameters: rig.connectionParameters)
            // With the other accessory off, the survivor's supervision timer is the air's only deadline: the
            // air's clock stands at it when the central hears of the loss.
            #expect(await air.server.answer("power heart-rate off") == "ok heart-rate off")
            // The power goes off at the request (all of it runs on the air's loop: no time passes).
            let requested = air.clock.now
            let schedule = try #require(await air.server.runtime.world.air.theLinksSupervision(lostAt: requested))
            #expect(await air.server.answer("power thermometer off") == "ok thermometer off")
            let reason = try await link.waitForDisconnection(timeout: rig.budgets.supervisionTimeout + rig.budgets.linkLossMargin)
            #expect(reason == .connectionTimeout)
            #expect(air.clock.now == schedule.deadline, """
                reported \(requested.duration(to: air.clock.now)) after the power-off, not at the first connection event at or after \
                the supervision timeout (\(requested.duration(to: schedule.deadline)))
                """)
            #expect(requested.duration(to: schedule.deadline) >= rig.budgets.supervisionTimeout)
            #expect(requested.duration(to: schedule.deadline) < rig.budgets.supervisionTimeout + schedule.interval)
            #expect(await air.server.answer("power thermometer on") == "ok thermometer on")
            _ = try await central.find(thermometer.match, timeout: rig.budgets.advertisingAfterPowerOn)
            await central.close()
        }
    }

    @Test func aHostWhoseConnectionClosesIsLostToItsPeerAfterTheSupervisionTimeout() async throws {
        try await ServedAirFixture.with { air in
            // Nothing else on the air keeps time: the survivor's supervision timer is its only deadline.
            #expect(await air.server.answer("power heart-rate off") == "ok heart-rate off")
            #expect(await air.server.answer("power thermometer off") == "ok thermometer off")
            let peripheral = try await air.device()
            try await peripheral.startAdvertising(Advertisement(name: "HIL-Served-Peer", serviceUUIDs: [], interval: 48))
            let central = try await air.device()
            let parameters = air.rig.connectionParameters
            let link = try await central.connect(matching: ScanFilter(name: "HIL-Served-Peer"), scanTimeout: .seconds(2), parameters: parameters)
            await peripheral.close() // its socket closes: the served controller leaves the air like a powered-off one
            // Logged at the instant its controller left the air.
            let closed = try #require(await air.log.line { $0.contains("connection 1 on ") && $0.hasSuffix(": the host closed it") }.at)
            let schedule = try #require(await air.server.runtime.world.air.theLinksSupervision(lostAt: closed))
            let timeout = Duration.milliseconds(10 * Int64(parameters.supervisionTimeout))
            let reason = try await link.waitForDisconnection(timeout: timeout + air.rig.budgets.linkLossMargin)
            #expect(reason == .connectionTimeout)
            #expect(air.clock.now == schedule.deadline, """
                reported \(closed.duration(to: air.clock.now)) after the peer left, not at the first connection event at or after \
                the supervision timeout (\(closed.duration(to: schedule.deadline)))
                """)
            #expect(closed.duration(to: schedule.deadline) >= timeout)
            #expect(closed.duration(to: schedule.deadline) < timeout + schedule.interval)
            await central.close()
        }
    }

    @Test func aHostSendingGarbageIsDroppedAndOthersKeepWorking() async throws {
        try await ServedAirFixture.with { air in
            let bystander = try await air.device()
            for bytes: [UInt8] in [[0x07, 0x01, 0x02, 0x03], [0x02, 0x01, 0x00, 0xFF, 0x01] /* ACL of 511 bytes > 251 */] {
                let fd = try #require(SocketOptions.connectUnix(air.socketPath))
                defer { _ = SocketOptions.closeDescriptor(fd) }
                #expect(BlockingSocket.write(fd, bytes))
                #expect(try await offPool { BlockingSocket.readsEndOfStream(fd) }, "the server closes a connection that sent \(bytes)")
            }
            func dropped() -> [String] { air.log.all.filter { $0.contains("dropped") && $0.contains("H4 framing") } }
            // One log line per dropped connection, once its controller has left the air.
            _ = await air.log.line { $0.contains("dropped") && $0.contains("unknown packet indicator 0x07") }
            _ = await air.log.line { $0.contains("dropped") && $0.contains("511 bytes, above the limit of 251") }
            #expect(dropped().count == 2, "one log line per dropped connection: \(air.log.all)")
            // The other host still works, and a new one can join.
            _ = try await bystander.find(ScanFilter(name: "HIL-Thermo"), timeout: air.rig.budgets.advertisingAfterPowerOn)
            let late = try await air.device()
            _ = try await late.find(ScanFilter(name: "HIL-HRM"), timeout: air.rig.budgets.advertisingAfterPowerOn)
            await late.close()
            await bystander.close()
        }
    }

    /// What `shutdown()` does before it shuts the bench down (`close()`; the fixture shuts the bench down
    /// after its drive): connections end, the socket files go.
    @Test func shutdownClosesConnectionsAndRemovesSocketFiles() async throws {
        try await ServedAirFixture.with { air in
            let central = try await air.device()
            #expect(FileManager.default.fileExists(atPath: air.socketPath))
            let events = await central.host.events()
            await air.server.close()
            for await _ in events {} // the host's events end when its transport closes
            #expect(await central.host.state != .poweredOn, "the host's transport closed")
            #expect(!FileManager.default.fileExists(atPath: air.socketPath))
            #expect(!FileManager.default.fileExists(atPath: air.controlPath))
            await central.close()
        }
    }
}

extension SimulatedAir {
    /// When the survivor of the air's one link times out if its peer is lost at `instant`: at the first
    /// connection event at or after the link's supervision timeout (`sideLost`); and the link's interval.
    func theLinksSupervision(lostAt instant: ContinuousClock.Instant) -> (deadline: ContinuousClock.Instant, interval: Duration)? {
        guard links.count == 1, let link = links.values.first else { return nil }
        return (link.nextEvent(atOrAfter: instant.advanced(by: link.supervisionTimeout)).at, link.interval)
    }
}
