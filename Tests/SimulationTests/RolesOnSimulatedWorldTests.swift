import HCIPackets
import HostCore
import GATT
import Roles
import Simulation
import Testing
import TestSupport

/// The roles the harness runs — `LEDevice` central and peripheral, GATT over ATT over L2CAP — on
/// simulated controllers: an accessory on the simulated world is our own peripheral role on `sim:NAME`.
@Suite struct RolesOnSimulatedWorldTests {
    /// An accessory (battery level 87 %) on `sim:peripheral` and a central on `sim:central`, 27-byte buffers: a
    /// world on virtual time, the body a drive of its clock.
    struct Devices {
        let world: SimulatedWorld
        let accessory: LEDevice
        let central: LEDevice

        static func with(_ body: (Devices) async throws -> Void) async throws {
            try await SimulatedWorldFixture.drive { world in
                let database = try GATTDatabase(services: [.gap(name: "HIL-Accessory"), .gatt(), .battery(level: 87)])
                let accessory = LEDevice(host: try HCIHost(transport: world.openTransport(named: "peripheral")), database: database,
                                         attTransactionTimeout: .seconds(2))
                let central = LEDevice(host: try HCIHost(transport: world.openTransport(named: "central")), attTransactionTimeout: .seconds(2))
                do {
                    try await body(Devices(world: world, accessory: accessory, central: central))
                } catch {
                    await accessory.close()
                    await central.close()
                    throw error
                }
                await accessory.close()
                await central.close()
            }
        }

        /// Advertises, connects by name, and returns both ends of the link.
        func connect() async throws -> (central: LEConnection, peripheral: LEConnection) {
            let incoming = await accessory.incomingConnections()
            try await accessory.startAdvertising(Advertisement(name: "HIL-Accessory", interval: 32))
            let link = try await central.connect(matching: ScanFilter(name: "HIL-Accessory"), scanTimeout: .seconds(2), timeout: .seconds(2))
            // Both sides complete at the same advertising event; the accessory's side arrives on its own stream.
            let peripheral = try await TestSupport.first(of: incoming, within: .seconds(1), clock: world.air.clock, "the accessory's connection")
            return (link, peripheral)
        }
    }

    @Test func centralDiscoversAndReadsTheAccessoryOverGATT() async throws {
        try await Devices.with { devices in
            let (link, peripheralLink) = try await devices.connect()
            #expect(link.role == .central && peripheralLink.role == .peripheral)
            let tree = try await link.gatt.discoverAll(readValues: true)
            #expect(tree.characteristic(.batteryLevel)?.value == .bytes([87]))
            #expect(try await link.disconnect() == .connectionTerminatedByLocalHost)
            #expect(try await peripheralLink.waitForDisconnection(timeout: .seconds(1)) == .remoteUserTerminatedConnection)
            #expect(await link.anomalies.isEmpty)
            #expect(await peripheralLink.anomalies.isEmpty)
            // The accessory advertises again after the link ends.
            let again = try await devices.central.find(ScanFilter(name: "HIL-Accessory"), timeout: .seconds(2))
            #expect(again.isConnectable)
        }
    }

    @Test func accessoryParameterRequestOverL2CAPSignalingCompletes() async throws {
        try await Devices.with { devices in
            let (link, peripheralLink) = try await devices.connect()
            let wanted = ConnectionParameters(intervalMin: 24, intervalMax: 40, latency: 0, supervisionTimeout: 200)
            let centralHandle = link.handle
            let atCentral = try await devices.central.host.expect("LE Connection Update Complete on the central", timeout: .seconds(2)) { event -> UInt16? in
                if case .hci(.le(.connectionUpdateComplete(.success, centralHandle, _, _, let timeout))) = event { return timeout }
                return nil
            }
            try await peripheralLink.updateParameters(wanted, timeout: .seconds(2))
            #expect(await devices.accessory.host.connections[peripheralLink.handle]?.supervisionTimeout == 200)
            #expect(try await devices.central.host.wait(for: atCentral) == 200)
            _ = try await link.disconnect()
        }
    }

    /// The central last hears the accessory at the connection event that brings its last ATT response; cut off
    /// then, the link is lost exactly one supervision timeout later (Core v5.4 Vol 6 Part B §4.5.2), which the
    /// default parameters make a whole number of intervals (420 ms, 14 × 30 ms), so it ends at an event.
    @Test func accessoryLosingPowerEndsTheCentralsLinkWithConnectionTimeout() async throws {
        try await Devices.with { devices in
            let clock = devices.world.air.clock
            let (link, _) = try await devices.connect()
            let timeout = Duration.milliseconds(10 * Int(await link.supervisionTimeout))
            let interval = Duration.microseconds(1250 * Int(await link.interval))
            try #require((timeout / interval).rounded() == timeout / interval, "\(timeout) is not a whole number of \(interval) intervals")
            _ = try await link.gatt.discoverAll()
            let cut = clock.now // the central last heard the accessory at this connection event
            await devices.world.powerSwitch?.setPort(1, on: false)
            #expect(try await link.waitForDisconnection(timeout: .seconds(2)) == .connectionTimeout)
            #expect(cut.duration(to: clock.now) == timeout, "0x08 after \(cut.duration(to: clock.now))")
        }
    }
}
