import Foundation
import TestSupport
import Testing
@testable import HCI

/// Central and peripheral roles on btvirt: scan discipline, connect, disconnect, re-advertising,
/// parameter updates through L2CAP signaling.
@Suite(.serialized) struct RolesBtvirtTests {
    @Test func scanStopsAtTheFirstMatchAndDisablesScanning() async throws {
        try await BtvirtPeer.withControllers(2) { hosts in
            let accessory = LEDevice(host: hosts[0])
            let central = LEDevice(host: hosts[1])
            try await accessory.startAdvertising(Advertisement(name: "HIL-Thermo", serviceUUIDs: [BluetoothUUID(UInt16(0x1809))], interval: 32))
            let start = ContinuousClock.now
            let found = try await central.find(ScanFilter(name: "HIL-Thermo"), timeout: .seconds(5))
            // At the first match, not at the 5 s limit a scan that collected to the end would take.
            #expect(ContinuousClock.now - start < .seconds(4), "found after \(ContinuousClock.now - start)")
            #expect(found.address == (await hosts[0].controllerInfo?.address))
            #expect(found.advertisingData.serviceUUIDs == [BluetoothUUID(UInt16(0x1809))])
            #expect(found.isConnectable)
            // The scan session is over and scanning was disabled: a new scan can be configured at once.
            #expect(await central.scan == nil)
            let again = try await central.scan(ScanOptions(filter: ScanFilter(name: "HIL-Thermo"), timeout: .seconds(2)))
            #expect(again.count == 1)
        }
    }

    @Test func scanNeverOutlivesItsLimit() async throws {
        try await BtvirtPeer.withControllers(1) { hosts in
            let central = LEDevice(host: hosts[0])
            let start = ContinuousClock.now
            await #expect { try await central.find(ScanFilter(name: "Nobody"), timeout: .milliseconds(300)) } throws: { error in
                guard let error = error as? RoleError, case .notFound(_, let timeout, _) = error else { return false }
                return timeout == .milliseconds(300)
            }
            let elapsed = ContinuousClock.now - start
            #expect(elapsed >= .milliseconds(300))
            #expect(elapsed < .seconds(3), "a 300 ms scan limit ended after \(elapsed)")
        }
    }

    @Test func connectAndDisconnectBothSidesSeeIt() async throws {
        try await BtvirtPeer.withControllers(2) { hosts in
            let accessory = LEDevice(host: hosts[0])
            let central = LEDevice(host: hosts[1])
            let incoming = await accessory.incomingConnections()
            try await accessory.startAdvertising(Advertisement(name: "HIL-Accessory", interval: 32))
            let link = try await central.connect(matching: ScanFilter(name: "HIL-Accessory"), scanTimeout: .seconds(5))
            var iterator = incoming.makeAsyncIterator()
            let peripheralLink = try #require(await iterator.next())
            #expect(link.role == .central)
            #expect(peripheralLink.role == .peripheral)
            let local = try await link.disconnect(reason: .remoteUserTerminatedConnection)
            #expect(local == .remoteUserTerminatedConnection) // btvirt echoes; a real controller says 0x16
            #expect(try await peripheralLink.waitForDisconnection(timeout: .seconds(2)) == .remoteUserTerminatedConnection)
            #expect(await central.connections.isEmpty)
            // The accessory advertises again after the link ends: the central hears it.
            let again = try await central.find(ScanFilter(name: "HIL-Accessory"), timeout: .seconds(2))
            #expect(again.isConnectable)
            // Its own view follows once its LE Set Advertising Enable is answered (the air may carry the
            // first report before that answer reaches the accessory's host).
            #expect(await eventually(within: .seconds(2)) { await accessory.currentAdvertisement?.name == "HIL-Accessory" })
        }
    }

    @Test func connectingToAnAbsentAddressFails() async throws {
        try await BtvirtPeer.withControllers(1) { hosts in
            let central = LEDevice(host: hosts[0])
            let nobody = try #require(BDAddress("00:AA:01:0F:00:42"))
            await #expect { try await central.connect(to: nobody, type: .public, timeout: .seconds(1)) } throws: { error in
                guard let error = error as? RoleError, case .connectionFailed(_, let status) = error else { return false }
                return status == .connectionFailedToBeEstablished
            }
        }
    }

    @Test func peripheralAsksForNewParametersOverL2CAPSignaling() async throws {
        try await BtvirtPeer.withControllers(2) { hosts in
            let accessory = LEDevice(host: hosts[0])
            let central = LEDevice(host: hosts[1])
            let incoming = await accessory.incomingConnections()
            try await accessory.startAdvertising(Advertisement(name: "HIL-Params", interval: 32))
            let link = try await central.connect(matching: ScanFilter(name: "HIL-Params"), scanTimeout: .seconds(5))
            var iterator = incoming.makeAsyncIterator()
            let peripheralLink = try #require(await iterator.next())
            let wanted = ConnectionParameters(intervalMin: 24, intervalMax: 40, latency: 0, supervisionTimeout: 200)
            // Our central accepts the request (a rejection would throw .rejected) and issues LE Connection
            // Update; btvirt 5.66 acknowledges that command but never sends LE Connection Update Complete,
            // so on btvirt the peripheral's wait ends in a timeout naming that event. (The simulated bench
            // completes the whole exchange.)
            await #expect { try await peripheralLink.updateParameters(wanted, timeout: .milliseconds(500)) } throws: { error in
                guard let error = error as? RoleError, case .host(.eventTimeout(let awaited, _, _)) = error else { return false }
                return awaited.hasPrefix("LE Connection Update Complete")
            }
            #expect(await link.anomalies.isEmpty)
            #expect(await peripheralLink.anomalies.isEmpty)
            try await link.disconnect()
        }
    }
}
