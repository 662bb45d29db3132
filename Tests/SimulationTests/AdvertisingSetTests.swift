import HCIPackets
import HostCore
import Simulation
import Synchronization
import Testing

/// An advertising set with legacy PDUs (Core v5.4 Vol 4 Part E §7.8.53-§7.8.56) on a controller with LE
/// Extended Advertising: legacy scanners hear it as ADV_IND; an active scanner's scan requests come back as LE
/// Scan Request Received (§7.7.65.19) with the scanner's own address, a passive one's do not exist; the set
/// ends in a connection with LE Advertising Set Terminated after the connection's event (§7.7.65.18).
@Suite struct AdvertisingSetTests {
    /// The two-controller world (on virtual time: a scan window holds what the air sent in it), the peripheral
    /// with LE Extended Advertising (LE_Features bit 12).
    static let world: SimulatedWorldDescription = {
        var description = SimulatedWorldFixture.twoControllers
        description.controllers[1].leFeatures.insert(.leExtendedAdvertising)
        return description
    }()

    /// Advertising set 0: ADV_IND (properties 0x13) every 20 ms with a name, scan requests notified or not.
    static func advertiseSet(_ host: HCIHost, notify: Bool) async throws {
        var parameters = LESetExtendedAdvertisingParameters(handle: 0, properties: [.legacy, .connectable, .scannable], intervalMin: 0x20, intervalMax: 0x20)
        parameters.scanRequestNotification = notify
        _ = try await host.send(parameters)
        try await host.send(LESetExtendedAdvertisingData(handle: 0, data: AdvertisingData.make(flags: [.leGeneralDiscoverable], name: "HIL-Set").encoded()))
        try await host.send(LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 0)]))
    }

    /// Scan requests the advertiser's host heard while the scanner scanned with `type` for 300 ms.
    static func scanRequests(scanner: HCIHost, advertiser: HCIHost, type: LEScanType) async throws -> [(UInt8, AddressType, BDAddress)] {
        let heard = Mutex<[(UInt8, AddressType, BDAddress)]>([])
        let done = try await advertiser.expect("300 ms of scan requests", timeout: .milliseconds(300)) { event -> Bool? in
            if case .hci(.le(.scanRequestReceived(let set, let kind, let address))) = event { heard.withLock { $0.append((set, kind, address)) } }
            return nil
        }
        try await scanner.send(LESetScanParameters(type: type))
        try await scanner.send(LESetScanEnable(true, filterDuplicates: false))
        _ = try await HostScenarios.valueOrTimeout(done, on: advertiser)
        try await scanner.send(LESetScanEnable(false))
        return heard.withLock { $0 }
    }

    @Test func anActiveScannersRequestsAreReportedWithItsAddressAPassiveOnesAreNot() async throws {
        try await SimulatedWorldFixture.with(Self.world, hosts: ["central", "peripheral"]) { _, hosts in
            let (scanner, advertiser) = (hosts[0], hosts[1])
            let info = try #require(await advertiser.controllerInfo)
            #expect(info.supportsExtendedAdvertising)
            #expect(await scanner.controllerInfo?.supportsExtendedAdvertising == false)
            try await Self.advertiseSet(advertiser, notify: true)
            // A legacy scanner hears the set's legacy PDUs as ADV_IND.
            let reports = try await AdvertisingTests.scan(scanner, for: info.address, duration: .milliseconds(200), limit: 3)
            #expect(reports.count == 3 && reports.allSatisfy { $0.1.isConnectable && $0.1.advertisingData.localName == "HIL-Set" })
            let active = try await Self.scanRequests(scanner: scanner, advertiser: advertiser, type: .active)
            // One request per advertising event, 20 ms + advDelay (0–10 ms, Core v5.4 Vol 6 Part B §4.4.2.2.1) apart:
            // 300 ms of the world's clock hold 10 to 16 of them, each from the scanner's public address.
            #expect((10...16).contains(active.count), "\(active.count) scan requests")
            #expect(active.allSatisfy { $0.0 == 0 && $0.1 == .public && $0.2 == SimulatedWorldFixture.twoControllers.controllers[0].address })
            let passive = try await Self.scanRequests(scanner: scanner, advertiser: advertiser, type: .passive)
            #expect(passive.isEmpty)
        }
    }

    @Test func withoutNotificationsOrTheFeatureThereAreNoScanRequestEvents() async throws {
        try await SimulatedWorldFixture.with(Self.world, hosts: ["central", "peripheral"]) { _, hosts in
            try await Self.advertiseSet(hosts[1], notify: false)
            #expect(try await Self.scanRequests(scanner: hosts[0], advertiser: hosts[1], type: .active).isEmpty)
            // The central's controller has no LE Extended Advertising: the set commands are unknown to it.
            let status = try await HostScenarios.status(of: LESetExtendedAdvertisingParameters(handle: 0), on: hosts[0])
            #expect(status == .unknownHCICommand)
        }
    }

    @Test func theSetRefusesWhatTheSpecRefuses() async throws {
        try await SimulatedWorldFixture.with(Self.world, hosts: ["peripheral"]) { _, hosts in
            let host = hosts[0]
            // Extended PDUs (no legacy bit): this controller sends legacy PDUs only.
            #expect(try await HostScenarios.status(of: LESetExtendedAdvertisingParameters(handle: 0, properties: [.connectable]), on: host)
                == .unsupportedFeatureOrParameterValue)
            // Data for a set that does not exist; then legacy data past 31 octets.
            #expect(try await HostScenarios.status(of: LESetExtendedAdvertisingData(handle: 0, data: [2, 1, 6]), on: host) == .unknownAdvertisingIdentifier)
            _ = try await host.send(LESetExtendedAdvertisingParameters(handle: 0))
            #expect(try await HostScenarios.status(of: LESetExtendedAdvertisingData(handle: 0, data: [UInt8](repeating: 0, count: 32)), on: host)
                == .invalidHCICommandParameters)
            // One set: a second handle exceeds the memory; an own random address needs the set's random address.
            #expect(try await HostScenarios.status(of: LESetExtendedAdvertisingParameters(handle: 1), on: host) == .memoryCapacityExceeded)
            _ = try await host.send(LESetExtendedAdvertisingParameters(handle: 0, ownAddressType: .random))
            #expect(try await HostScenarios.status(of: LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 0)]), on: host) == .invalidHCICommandParameters)
            try await host.send(LESetAdvertisingSetRandomAddress(handle: 0, address: BDAddress(0xC0_11_22_33_44_55)))
            try await host.send(LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 0)]))
            #expect(try await HostScenarios.status(of: LESetExtendedAdvertisingParameters(handle: 0), on: host) == .commandDisallowed)
        }
    }

    /// Duration 10 (× 10 ms, §7.8.56): the set ends with Advertising Timeout exactly 100 ms after it was enabled.
    @Test func aDurationEndsTheSetWithAdvertisingTimeout() async throws {
        try await SimulatedWorldFixture.with(Self.world, hosts: ["peripheral"]) { world, hosts in
            let host = hosts[0]
            let clock = world.air.clock
            let ended = try await host.expect("LE Advertising Set Terminated", timeout: .seconds(2)) { event -> HCIStatus? in
                if case .hci(.le(.advertisingSetTerminated(let status, 0, 0, _))) = event { return status }
                return nil
            }
            _ = try await host.send(LESetExtendedAdvertisingParameters(handle: 0, intervalMin: 0x20, intervalMax: 0x20))
            // The controller enables the set at this instant: a command takes no time on the world's clock.
            let enabled = clock.now
            try await host.send(LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 0, duration: 10)])) // 100 ms
            #expect(try await host.wait(for: ended) == .advertisingTimeout)
            #expect(enabled.duration(to: clock.now) == .milliseconds(100), "ended after \(enabled.duration(to: clock.now))")
        }
    }

    @Test func aConnectionEndsTheSetAfterItsConnectionEvent() async throws {
        try await SimulatedWorldFixture.with(Self.world, hosts: ["central", "peripheral"]) { _, hosts in
            let (central, peripheral) = (hosts[0], hosts[1])
            let order = Mutex<[String]>([])
            let seen = try await peripheral.expect("the connection and the set's end", timeout: .seconds(2)) { event -> UInt16? in
                switch event {
                case .hci(.le(.connectionComplete(let complete))):
                    order.withLock { $0.append("connection 0x\(String(complete.handle, radix: 16))") }
                case .hci(.le(.advertisingSetTerminated(let status, let set, let handle, _))):
                    order.withLock { $0.append("terminated set \(set) \(status == .success ? "success" : "\(status)") handle 0x\(String(handle, radix: 16))") }
                    return handle
                default: break
                }
                return nil
            }
            try await Self.advertiseSet(peripheral, notify: false)
            let onCentral = try await HostScenarios.expectConnectionComplete(central, "the central")
            try await central.send(LECreateConnection(peerAddress: SimulatedWorldFixture.twoControllers.controllers[1].address, peerAddressType: .public))
            #expect(try await central.wait(for: onCentral).status == .success)
            let handle = try await peripheral.wait(for: seen)
            #expect(order.withLock { $0 } == ["connection 0x\(String(handle, radix: 16))", "terminated set 0 success handle 0x\(String(handle, radix: 16))"])
        }
    }
}
