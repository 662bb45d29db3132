import Foundation
import Testing
@testable import HCI

/// The roles on Rootcanal: extended advertising and scanning, periodic reports, the spec's disconnect
/// reasons (initiator 0x16, peer 0x13) and a vanished peer seen as 0x15.
@Suite(.serialized, RootcanalPeer.available) struct RolesRootcanalTests {
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
            let link = try await central.connect(matching: ScanFilter(name: "HIL-RC2"), scanTimeout: .seconds(5))
            var iterator = incoming.makeAsyncIterator()
            let peripheralLink = try #require(await iterator.next())
            #expect(try await link.disconnect(reason: .remoteUserTerminatedConnection) == .connectionTerminatedByLocalHost)
            #expect(try await peripheralLink.waitForDisconnection(timeout: .seconds(2)) == .remoteUserTerminatedConnection)
        }
    }

    @Test func aVanishedPeerIsSeenAs0x15() async throws {
        try await RootcanalPeer.withControllers(2) { hosts in
            let accessory = LEDevice(host: hosts[0])
            let central = LEDevice(host: hosts[1])
            try await accessory.startAdvertising(Advertisement(name: "HIL-RC3", interval: 32))
            let link = try await central.connect(matching: ScanFilter(name: "HIL-RC3"), scanTimeout: .seconds(5))
            await hosts[0].close() // the accessory's socket closes, as when its process dies
            let reason = try await link.waitForDisconnection(timeout: .seconds(2))
            #expect(reason == .remoteDeviceTerminatedConnectionDueToPowerOff)
        }
    }
}
