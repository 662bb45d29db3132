import Foundation
import TestSupport
import Testing
@testable import HCIPackets
@testable import GATT
@testable import Roles

/// The roles on Rootcanal: extended advertising and scanning, periodic reports, the spec's disconnect
/// reasons (initiator 0x16, peer 0x13) and a vanished peer seen as 0x15.
///
/// Rootcanal is a real peer on real time, reachable only inside its network namespace (`.rootcanal`;
/// `RootcanalPeer.available` skips the suite anywhere else). Its bounds are on the wall clock and say why
/// they are that wide: Rootcanal follows the radio's timing (connection events, advertising intervals),
/// and the rest is room for a loaded 2-core machine.
@Suite(.serialized, .tags(.rootcanal), RootcanalPeer.available) struct RolesRootcanalTests {
    @Test func controllerIsAFiveThreeGoogleController() async throws {
        try await RootcanalPeer.withControllers(1) { hosts in
            let info = try #require(await hosts[0].controllerInfo)
            #expect(info.manufacturer.rawValue == 0x00E0)
            #expect(info.supportsExtendedScanning)
        }
    }

    @Test func scanSeesRepeatedReportsWithRealRSSI() async throws {
        try await RootcanalPeer.withControllers(2) { hosts in
            let accessory = LEDevice(host: hosts[0])
            let central = LEDevice(host: hosts[1])
            try await accessory.startAdvertising(Advertisement(name: "HIL-RC", interval: 32))
            // A scan that collects for 800 ms: forty 20 ms advertising intervals, so more than one report even
            // when the machine is slow to start the scan.
            let results = try await central.scan(ScanOptions(filter: ScanFilter(name: "HIL-RC"), timeout: .milliseconds(800), stopAtFirstMatch: false))
            let result = try #require(results.first)
            #expect(result.reportCount > 1)
            #expect(result.rssi != 127)
        }
    }

    @Test func disconnectReasonsAreTheSpecs() async throws {
        try await RootcanalPeer.withControllers(2) { hosts in
            let accessory = LEDevice(host: hosts[0])
            let central = LEDevice(host: hosts[1])
            let incoming = await accessory.incomingConnections()
            try await accessory.startAdvertising(Advertisement(name: "HIL-RC2", interval: 32))
            // 5 s: the advertiser's first report comes within its 20 ms interval; the rest is a loaded machine's.
            let link = try await central.connect(matching: ScanFilter(name: "HIL-RC2"), scanTimeout: .seconds(5))
            var iterator = incoming.makeAsyncIterator()
            let peripheralLink = try #require(await iterator.next())
            #expect(try await link.disconnect(reason: .remoteUserTerminatedConnection) == .connectionTerminatedByLocalHost)
            // 2 s: the peer hears the termination within a few connection events; the rest is scheduling.
            #expect(try await peripheralLink.waitForDisconnection(timeout: .seconds(2)) == .remoteUserTerminatedConnection)
        }
    }

    @Test func aVanishedPeerIsSeenAs0x15() async throws {
        try await RootcanalPeer.withControllers(2) { hosts in
            let accessory = LEDevice(host: hosts[0])
            let central = LEDevice(host: hosts[1])
            try await accessory.startAdvertising(Advertisement(name: "HIL-RC3", interval: 32))
            // 5 s: as above.
            let link = try await central.connect(matching: ScanFilter(name: "HIL-RC3"), scanTimeout: .seconds(5))
            await hosts[0].close() // the accessory's socket closes, as when its process dies
            // 2 s: Rootcanal ends the link as soon as it sees the socket close; the rest is scheduling.
            let reason = try await link.waitForDisconnection(timeout: .seconds(2))
            #expect(reason == .remoteDeviceTerminatedConnectionDueToPowerOff)
        }
    }
}

/// GATT between our stack and Bumble on Rootcanal, and the connect deadline Rootcanal lets us exercise
/// (a connection to a non-advertiser stays pending until LE Create Connection Cancel). Rootcanal and Bumble
/// are real peers on real time (`.rootcanal`, as above).
@Suite(.serialized, .tags(.rootcanal), RootcanalPeer.available) struct GATTInteropRootcanalTests {
    @Test func connectDeadlineCancelsThePendingConnection() async throws {
        try await RootcanalPeer.withControllers(1) { hosts in
            let central = LEDevice(host: hosts[0])
            let nobody = try #require(BDAddress("C0:00:00:00:00:99"))
            let start = ContinuousClock.now
            await #expect { try await central.connect(to: nobody, type: .random, timeout: .milliseconds(500)) } throws: { error in
                guard let error = error as? RoleError, case .connectTimeout(let address, let timeout) = error else { return false }
                return address == nobody && timeout == .milliseconds(500)
            }
            // Not before its deadline; no upper bound, as what follows the deadline (LE Create Connection Cancel
            // and Rootcanal's answer) is Rootcanal's time, not ours.
            #expect(ContinuousClock.now - start >= .milliseconds(500))
            // The attempt was really cancelled: a new one can start at once.
            // 200 ms: nobody answers, so the attempt can only end in an error; a short deadline keeps it short.
            await #expect(throws: RoleError.self) { try await central.connect(to: nobody, type: .random, timeout: .milliseconds(200)) }
        }
    }

    @Test func ourCentralDiscoversABumbleAccessory() async throws {
        let moniker = try #require(RootcanalPeer.moniker)
        try await RootcanalPeer.withControllers(1) { hosts in
            let accessory = try await BumblePeer.startAccessory(transport: moniker, name: "HIL-Bumble-RC")
            do {
                let central = LEDevice(host: hosts[0])
                // 5 s: Bumble advertises every 30 ms once READY; the rest is a loaded machine's.
                let link = try await central.connect(matching: ScanFilter(name: "HIL-Bumble-RC"), scanTimeout: .seconds(5))
                let tree = try await link.gatt.discoverAll(readValues: true)
                #expect(tree.services.contains { $0.uuid == BluetoothUUID(UInt16(0x180D)) })
                let battery = try #require(tree.characteristics.first { $0.uuid == BluetoothUUID(UInt16(0x2A19)) })
                #expect(battery.value == .bytes([87]))
                #expect(try await link.disconnect() == .connectionTerminatedByLocalHost)
            } catch {
                await accessory.stop()
                throw error
            }
            await accessory.stop()
        }
    }

    @Test func aBumbleCentralDiscoversAndReadsOurPeripheral() async throws {
        let moniker = try #require(RootcanalPeer.moniker)
        try await RootcanalPeer.withControllers(1) { hosts in
            let database = try GATTDatabase(services: [.gap(name: "HIL-Ours-RC"), .gatt(), .battery(level: 42)])
            let peripheral = LEDevice(host: hosts[0], database: database)
            try await peripheral.startAdvertising(Advertisement(name: "HIL-Ours-RC", serviceUUIDs: [BluetoothUUID(UInt16(0x180F))], interval: 32))
            let result = try await BumblePeer.runCentral(transport: moniker, name: "HIL-Ours-RC")
            let services = try #require(result["services"] as? [[String: Any]], "Bumble said: \(result)")
            let characteristics = services.flatMap { ($0["characteristics"] as? [[String: Any]]) ?? [] }
            let battery = characteristics.first { ($0["uuid"] as? String)?.contains("2A19") == true }
            #expect(battery?["value"] as? String == "2a")
        }
    }
}
