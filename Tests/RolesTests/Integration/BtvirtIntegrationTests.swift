import Foundation
import TestSupport
import Testing
@testable import HCIPackets
@testable import HostCore

/// Our host against BlueZ's emulated controller, a controller nobody here wrote.
///
/// A real peer on real time (`.peer`): btvirt's controllers answer over a Unix socket from their own process.
@Suite(.serialized, .tags(.peer)) struct BtvirtIntegrationTests {
    /// How long a test waits for an event btvirt sends: it answers a command, relays an advertisement (every
    /// 20 ms here) or a link's PDU or end within milliseconds, so 2 s is room for a loaded 2-core machine's
    /// scheduling of btvirt's process and ours.
    static let eventBound: Duration = .seconds(2)

    @Test func infoDescribesBtvirtsLEController() async throws {
        try await BtvirtPeer.withControllers(1) { hosts in
            let info = try #require(await hosts[0].controllerInfo)
            #expect(info.manufacturer.rawValue == 0x05F1)
            #expect(info.manufacturer.name?.contains("Linux Foundation") == true)
            #expect(info.hciVersion.name == "5.0")
            let address = info.address.description
            #expect(address.hasPrefix("00:AA:01:") && address.hasSuffix(":00:42"))
            #expect(info.leACLBufferLength == 192)
            #expect(!info.supportsExtendedAdvertising)
            #expect(await hosts[0].state == .poweredOn)
        }
    }

    @Test func resetGoesThroughResettingToPoweredOn() async throws {
        try await BtvirtPeer.withControllers(1) { hosts in
            let host = hosts[0]
            let events = await host.events()
            try await host.initialize()
            var states: [AdapterState] = []
            for await event in events {
                if case .stateChanged(let state) = event { states.append(state) }
                if states.last == .poweredOn { break }
            }
            #expect(states == [.resetting, .poweredOn])
        }
    }

    @Test func advertisingOnOneControllerIsSeenByAScanOnAnother() async throws {
        try await BtvirtPeer.withControllers(2) { hosts in
            let (advertiser, scanner) = (hosts[0], hosts[1])
            let advertiserAddress = try #require(await advertiser.controllerInfo?.address)
            try await Self.advertise(advertiser, name: "HIL-Btvirt")
            let seen = try await scanner.expect("an advertising report from \(advertiserAddress)", timeout: Self.eventBound) { event -> AdvertisingReport? in
                guard case .hci(.le(.advertisingReports(let reports))) = event else { return nil }
                return reports.first { $0.address == advertiserAddress && !$0.isScanResponse }
            }
            try await scanner.send(LESetScanParameters(type: .passive))
            try await scanner.send(LESetScanEnable(true))
            let report = try await scanner.wait(for: seen)
            try await scanner.send(LESetScanEnable(false))
            #expect(report.advertisingData.localName == "HIL-Btvirt")
            #expect(report.isConnectable)
            #expect(report.rssi == 127) // btvirt does not model RSSI
        }
    }

    @Test func connectThenDisconnectFromTheCentral() async throws {
        try await BtvirtPeer.withControllers(2) { hosts in
            let (peripheral, central) = (hosts[0], hosts[1])
            let (centralHandle, peripheralHandle) = try await Self.connect(central: central, peripheral: peripheral)
            #expect(await central.connections[centralHandle]?.role == .central)
            #expect(await peripheral.connections[peripheralHandle]?.role == .peripheral)
            let peripheralSaw = try await peripheral.expect("Disconnection Complete on the peripheral", timeout: Self.eventBound) { event -> HCIStatus? in
                if case .hci(.disconnectionComplete(let complete)) = event { return complete.reason }
                return nil
            }
            let localReason = try await central.disconnect(handle: centralHandle, reason: .remoteUserTerminatedConnection)
            // btvirt echoes the sent reason to the initiator where a real controller says 0x16.
            #expect(localReason == .remoteUserTerminatedConnection)
            #expect(try await peripheral.wait(for: peripheralSaw) == .remoteUserTerminatedConnection)
            #expect(await central.connections.isEmpty)
            #expect(await peripheral.connections.isEmpty)
        }
    }

    @Test func peerDisconnectingWithConnectionTimeoutIsSeenAs0x08() async throws {
        try await BtvirtPeer.withControllers(2) { hosts in
            let (peripheral, central) = (hosts[0], hosts[1])
            let (centralHandle, peripheralHandle) = try await Self.connect(central: central, peripheral: peripheral)
            let centralSaw = try await central.expect("Disconnection Complete on the central", timeout: Self.eventBound) { event -> HCIStatus? in
                if case .hci(.disconnectionComplete(let complete)) = event, complete.handle == centralHandle { return complete.reason }
                return nil
            }
            try await peripheral.disconnect(handle: peripheralHandle, reason: .connectionTimeout)
            let reason = try await central.wait(for: centralSaw)
            #expect(reason == .connectionTimeout)
            #expect(reason.description == "0x08 Connection Timeout")
        }
    }

    @Test func aclExchangeBothWays() async throws {
        try await BtvirtPeer.withControllers(2) { hosts in
            let (peripheral, central) = (hosts[0], hosts[1])
            let (centralHandle, peripheralHandle) = try await Self.connect(central: central, peripheral: peripheral)
            // An L2CAP PDU on the ATT channel larger than one buffer (192 bytes) to exercise fragmentation.
            let payload = (0..<300).map { UInt8($0 & 0xFF) }
            let pdu = [UInt8(payload.count & 0xFF), UInt8(payload.count >> 8), 0x04, 0x00] + payload
            let arrived = try await peripheral.expect("the central's PDU", timeout: Self.eventBound) { event -> [UInt8]? in
                if case .aclPDU(peripheralHandle, let data) = event { return data }
                return nil
            }
            try await central.sendACL(handle: centralHandle, pdu: pdu)
            #expect(try await peripheral.wait(for: arrived) == pdu)
            let back = [0x01, 0x00, 0x04, 0x00, 0x1B] as [UInt8]
            let returned = try await central.expect("the peripheral's PDU", timeout: Self.eventBound) { event -> [UInt8]? in
                if case .aclPDU(centralHandle, let data) = event { return data }
                return nil
            }
            try await peripheral.sendACL(handle: peripheralHandle, pdu: back)
            #expect(try await central.wait(for: returned) == back)
        }
    }

    @Test func connectingToANonAdvertiserFailsAtOnceWith0x3E() async throws {
        try await BtvirtPeer.withControllers(2) { hosts in
            let (silent, central) = (hosts[0], hosts[1])
            let target = try #require(await silent.controllerInfo?.address)
            let complete = try await central.expect("LE Connection Complete", timeout: Self.eventBound) { event -> HCIStatus? in
                if case .hci(.le(.connectionComplete(let c))) = event { return c.status }
                return nil
            }
            try await central.send(LECreateConnection(peerAddress: target, peerAddressType: .public))
            #expect(try await central.wait(for: complete) == .connectionFailedToBeEstablished)
        }
    }

    // MARK: Helpers

    static func advertise(_ host: HCIHost, name: String) async throws {
        try await host.send(LESetAdvertisingParameters(intervalMin: 0x0020, intervalMax: 0x0020))
        try await host.send(LESetAdvertisingData(AdvertisingData.make(flags: [.leGeneralDiscoverable, .brEdrNotSupported], name: name).encoded()))
        try await host.send(LESetAdvertisingEnable(true))
    }

    /// Connects `central` to advertising `peripheral`; returns both handles.
    static func connect(central: HCIHost, peripheral: HCIHost) async throws -> (UInt16, UInt16) {
        try await advertise(peripheral, name: "HIL-Peripheral")
        let target = try #require(await peripheral.controllerInfo?.address)
        let onCentral = try await central.expect("LE Connection Complete on the central", timeout: Self.eventBound) { event -> UInt16? in
            if case .hci(.le(.connectionComplete(let c))) = event, c.status == .success { return c.handle }
            return nil
        }
        let onPeripheral = try await peripheral.expect("LE Connection Complete on the peripheral", timeout: Self.eventBound) { event -> UInt16? in
            if case .hci(.le(.connectionComplete(let c))) = event, c.status == .success { return c.handle }
            return nil
        }
        try await central.send(LECreateConnection(peerAddress: target, peerAddressType: .public))
        return (try await central.wait(for: onCentral), try await peripheral.wait(for: onPeripheral))
    }
}
