@testable import AirServer
import Foundation
@testable import HCI
@testable import Simulation
import Testing
import TestSupport

/// The served air with our own host stack on its unix socket: each connection is a fresh controller on
/// the rig's air, and a vanished peer is reported as a real radio does (0x08 after the supervision timeout).
@Suite(.serialized) struct SimulatedAirServerTests {
    @Test func ourHostScansConnectsAndDiscoversTheRigsAccessory() async throws {
        let air = try await ServedAirFixture.start()
        let central = try await air.device()
        let thermometer = try #require(air.rig.accessory(named: "thermometer"))
        let found = try await central.find(thermometer.match, timeout: air.rig.budgets.advertisingAfterPowerOn)
        #expect(found.address == BDAddress("C0:48:49:4C:00:02"), "the rig's thermometer controller advertises on the served air")
        let link = try await central.connect(matching: thermometer.match, scanTimeout: .seconds(2), parameters: air.rig.connectionParameters)
        let tree = try await link.gatt.discoverAll()
        for uuid in thermometer.expectedServices { #expect(tree.services.contains { $0.uuid == uuid }, "service \(uuid)") }
        #expect(try await link.disconnect() == .connectionTerminatedByLocalHost)
        await central.close()
        await air.stop()
    }

    @Test func eachConnectionGetsAFreshControllerWithItsOwnAddress() async throws {
        let air = try await ServedAirFixture.start()
        let (first, a) = try await air.deviceAndInfo()
        let (second, b) = try await air.deviceAndInfo()
        #expect(a.address != b.address, "two connections, two BD_ADDRs: \(a.address), \(b.address)")
        #expect(a.address != .zero && b.address != .zero)
        let onAir = await air.server.runtime.world.air.controllerNamesOnAir()
        #expect(onAir.filter { $0.hasPrefix("served-") }.count == 2)
        await first.close()
        #expect(await eventually(within: .seconds(2)) {
            await air.server.runtime.world.air.controllerNamesOnAir().filter { $0.hasPrefix("served-") }.count == 1
        }, "a closed connection's controller leaves the air")
        await second.close()
        await air.stop()
    }

    @Test func powerOffOverTheControlProtocolIsAConnectionTimeoutAfterTheSupervisionTimeout() async throws {
        let air = try await ServedAirFixture.start()
        let central = try await air.device()
        let rig = air.rig
        let thermometer = try #require(rig.accessory(named: "thermometer"))
        let link = try await central.connect(matching: thermometer.match, scanTimeout: .seconds(2), parameters: rig.connectionParameters)
        // The power goes off between the request and its answer: the supervision timeout is counted from the
        // request (the earliest the peer can have vanished), the deadline to see it from the answer.
        let requested = ContinuousClock.now
        #expect(await air.server.answer("power thermometer off") == "ok thermometer off")
        let reason = try await link.waitForDisconnection(timeout: rig.budgets.supervisionTimeout + rig.budgets.linkLossMargin)
        let elapsed = ContinuousClock.now - requested
        #expect(reason == .connectionTimeout)
        #expect(elapsed >= rig.budgets.supervisionTimeout, "reported \(elapsed) after the power-off was requested, before the supervision timeout")
        #expect(await air.server.answer("power thermometer on") == "ok thermometer on")
        _ = try await central.find(thermometer.match, timeout: rig.budgets.advertisingAfterPowerOn)
        await central.close()
        await air.stop()
    }

    @Test func aHostWhoseConnectionClosesIsLostToItsPeerAfterTheSupervisionTimeout() async throws {
        let air = try await ServedAirFixture.start()
        let peripheral = try await air.device()
        try await peripheral.startAdvertising(Advertisement(name: "HIL-Served-Peer", serviceUUIDs: [], interval: 48))
        let central = try await air.device()
        let parameters = air.rig.connectionParameters
        let link = try await central.connect(matching: ScanFilter(name: "HIL-Served-Peer"), scanTimeout: .seconds(2), parameters: parameters)
        let closed = ContinuousClock.now
        await peripheral.close() // its socket closes: the served controller leaves the air like a powered-off one
        let timeout = Duration.milliseconds(10 * Int64(parameters.supervisionTimeout))
        let reason = try await link.waitForDisconnection(timeout: timeout + air.rig.budgets.linkLossMargin)
        #expect(reason == .connectionTimeout)
        #expect(ContinuousClock.now - closed >= timeout)
        await central.close()
        await air.stop()
    }

    @Test func aHostSendingGarbageIsDroppedAndOthersKeepWorking() async throws {
        let air = try await ServedAirFixture.start()
        let bystander = try await air.device()
        for bytes: [UInt8] in [[0x07, 0x01, 0x02, 0x03], [0x02, 0x01, 0x00, 0xFF, 0x01] /* ACL of 511 bytes > 251 */] {
            let fd = try #require(SocketOptions.connectUnix(air.socketPath))
            defer { _ = SocketOptions.closeDescriptor(fd) }
            #expect(SocketOptions.writeAll(fd, bytes, deadline: .now + .seconds(1)))
            #expect(try await offPool { readsEndOfStream(fd, within: .seconds(2)) }, "the server closes a connection that sent \(bytes)")
        }
        func dropped() -> [String] { air.log.all.filter { $0.contains("dropped") && $0.contains("H4 framing") } }
        #expect(await eventually(within: .seconds(1)) { dropped().count == 2 }, "one log line per dropped connection: \(air.log.all)")
        let dropped = dropped()
        #expect(dropped.contains { $0.contains("unknown packet indicator 0x07") })
        #expect(dropped.contains { $0.contains("511 bytes, above the limit of 251") })
        // The other host still works, and a new one can join.
        _ = try await bystander.find(ScanFilter(name: "HIL-Thermo"), timeout: air.rig.budgets.advertisingAfterPowerOn)
        let late = try await air.device()
        _ = try await late.find(ScanFilter(name: "HIL-HRM"), timeout: air.rig.budgets.advertisingAfterPowerOn)
        await late.close()
        await bystander.close()
        await air.stop()
    }

    @Test func shutdownClosesConnectionsAndRemovesSocketFiles() async throws {
        let air = try await ServedAirFixture.start()
        let central = try await air.device()
        #expect(FileManager.default.fileExists(atPath: air.socketPath))
        await air.server.shutdown()
        #expect(await eventually(within: .seconds(2)) { await central.host.state != .poweredOn }, "the host's transport closed")
        #expect(!FileManager.default.fileExists(atPath: air.socketPath))
        #expect(!FileManager.default.fileExists(atPath: air.controlPath))
        await central.close()
        await air.stop()
    }
}

/// Whether `fd` reports end of stream (or a reset) within `timeout`, discarding what it reads.
func readsEndOfStream(_ fd: Int32, within timeout: Duration) -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    var buffer = [UInt8](repeating: 0, count: 512)
    while ContinuousClock.now < deadline {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, 50)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { return true }
    }
    return false
}
