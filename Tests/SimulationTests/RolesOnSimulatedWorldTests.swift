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
        /// The central's transport, keeping the ACL packets its controller delivered.
        let centralRecorder: RecordingTransport

        static func with(_ description: SimulatedWorldDescription = SimulatedWorldFixture.twoControllers,
                         _ body: (Devices) async throws -> Void) async throws {
            try await SimulatedWorldFixture.drive(description) { world in
                let database = try GATTDatabase(services: [.gap(name: "HIL-Accessory"), .gatt(), .battery(level: 87)])
                let accessory = LEDevice(host: try HCIHost(transport: world.openTransport(named: "peripheral")), database: database,
                                         attTransactionTimeout: .seconds(2))
                let recorder = RecordingTransport(try world.openTransport(named: "central"))
                let central = LEDevice(host: try HCIHost(transport: recorder), attTransactionTimeout: .seconds(2))
                do {
                    try await body(Devices(world: world, accessory: accessory, central: central, centralRecorder: recorder))
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

    /// End to end through the roles: the accessory asks for 251-octet PDUs and LE 2M (its link events report
    /// both), the central takes ATT_MTU 247 or more, and the accessory's GATT notifications of 244 octets — each
    /// `notify` paced by its host's ACL flow control, which keeps the controller's 8 buffers full — reach the
    /// central at the rate of docs/link-layer.md: 21 in each 30 ms event, 170,800 B/s.
    @Test func notificationsThroughGATTReachTheLinkLayersRate() async throws {
        try await Devices.with(.standard) { devices in
            let (link, peripheralLink) = try await devices.connect()
            #expect(await link.interval == 0x0018)
            #expect(try await link.exchangeMTU() >= 247)
            let accessoryHost = devices.accessory.host, handle = peripheralLink.handle
            #expect(try await accessoryHost.send(LESetDataLength(handle: handle, length: .maximum)) == handle)
            let length = try await peripheralLink.waitForLinkEvent("the data length", timeout: .seconds(1)) { event -> LinkDataLength? in
                if case .dataLength(let length) = event { return length }
                return nil
            }
            #expect(length.transmit == .maximum && length.receive == .initial)
            try await accessoryHost.send(LESetPHY(handle: handle, transmitPHYs: 0x02, receivePHYs: 0x02))
            let phy = try await peripheralLink.waitForLinkEvent("the PHY", timeout: .seconds(1)) { event -> LinkPHYUpdate? in
                if case .phy(let update) = event { return update }
                return nil
            }
            #expect(phy.phy == LinkPHY(transmitter: 2, receiver: 2))
            let tree = try await link.gatt.discoverAll()
            let battery = try #require(tree.characteristic(.batteryLevel))
            let notifications = try await link.gatt.subscribe(to: battery)
            let count = 10 * 21 + 1
            let value = [UInt8](repeating: 0x5A, count: 244)
            let clock = devices.world.air.clock
            async let received = collect(notifications, count: count, within: .seconds(5), clock: clock, "notifications")
            for _ in 0..<count { #expect(try await peripheralLink.notify(valueHandle: battery.valueHandle, value: value)) }
            #expect(try await received.count == count)
            // Each notification is one PDU: 244 + 3 (ATT) + 4 (L2CAP) = 251 octets.
            let arrivals = devices.centralRecorder.received.filter { $0.packet.data.count == 251 }.map(\.at).suffix(count)
            let first = try #require(arrivals.first), last = try #require(arrivals.last)
            // About ten intervals: the first may ride the event of the subscription's answer, in a later exchange.
            let elapsed = first.duration(to: last)
            let rate = Double((count - 1) * value.count) / (Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds))
            #expect(abs(rate / 170_800 - 1) < 0.05, "\(count) notifications in \(elapsed): \(rate) B/s")
            _ = try await link.disconnect()
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
