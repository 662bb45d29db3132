import Foundation
import TestSupport
import Testing
@testable import HCIPackets
@testable import HostCore
@testable import GATT
@testable import Roles

/// Our central against a Bumble accessory, and a Bumble central against our peripheral, on btvirt.
///
/// Real peers on real time (`.peer`): btvirt's controllers and Bumble's Python processes. Their bounds are
/// on the wall clock and say why they are that wide.
@Suite(.serialized, .tags(.peer)) struct GATTInteropBtvirtTests {
    @Test func ourCentralDiscoversABumbleAccessory() async throws {
        try await BtvirtPeer.withControllers(1) { hosts in
            let accessory = try await BumblePeer.startAccessory(transport: "unix:\(BtvirtPeer.lePath)", name: "HIL-Bumble-1")
            do {
                try await Self.discoverBumble(hosts[0])
            } catch {
                await accessory.stop()
                throw error
            }
            await accessory.stop()
        }
    }

    static func discoverBumble(_ host: HCIHost) async throws {
        let central = LEDevice(host: host)
        // 5 s: Bumble advertises every 30 ms once READY; the rest is room for a loaded 2-core machine.
        let link = try await central.connect(matching: ScanFilter(name: "HIL-Bumble-1"), scanTimeout: .seconds(5))
        _ = try await link.gatt.exchangeMTU()
        let tree = try await link.gatt.discoverAll(readValues: true)
        let services = Set(tree.services.map(\.uuid))
        for uuid: UInt16 in [0x1800, 0x1801, 0x180F, 0x180A, 0x180D] { #expect(services.contains(BluetoothUUID(uuid))) }
        let battery = try #require(tree.characteristics.first { $0.uuid == BluetoothUUID(UInt16(0x2A19)) })
        #expect(battery.value == .bytes([87]))
        let manufacturer = try #require(tree.characteristics.first { $0.uuid == BluetoothUUID(UInt16(0x2A29)) })
        #expect(manufacturer.value == .bytes(Array("Bumble".utf8)))
        #expect(tree.databaseHash?.count == 16)
        // Subscribing writes the CCCD; Bumble accepts the write (an error response would throw).
        let notifications = try await link.gatt.subscribe(to: battery)
        _ = notifications
        try await link.disconnect()
    }

    @Test func aBumbleCentralDiscoversAndReadsOurPeripheral() async throws {
        try await BtvirtPeer.withControllers(1) { hosts in
            let database = try GATTDatabase(services: [.gap(name: "HIL-Ours"), .gatt(), .battery(level: 42),
                                                       .deviceInformation(manufacturer: "BluetoothHIL", model: "HIL-1")])
            let peripheral = LEDevice(host: hosts[0], database: database)
            try await peripheral.startAdvertising(Advertisement(name: "HIL-Ours", serviceUUIDs: [BluetoothUUID(UInt16(0x180F))], interval: 32))
            // Bumble's central ends itself after its 5 s default (`runCentral(timeout:)`): a scan for a 20 ms
            // advertiser, a connection and a discovery take well under a second; the rest is Python's start-up.
            let result = try await BumblePeer.runCentral(transport: "unix:\(BtvirtPeer.lePath)", name: "HIL-Ours")
            let services = try #require(result["services"] as? [[String: Any]], "Bumble said: \(result)")
            let uuids = services.compactMap { $0["uuid"] as? String }
            #expect(uuids.contains { $0.contains("180F") })
            #expect(uuids.contains { $0.contains("180A") })
            let characteristics = services.flatMap { ($0["characteristics"] as? [[String: Any]]) ?? [] }
            let battery = characteristics.first { ($0["uuid"] as? String)?.contains("2A19") == true }
            #expect(battery?["value"] as? String == "2a")
            let name = characteristics.first { ($0["uuid"] as? String)?.contains("2A00") == true }
            #expect(name?["value"] as? String == Array("HIL-Ours".utf8).map { String(format: "%02x", $0) }.joined())
        }
    }
}
