import HCIPackets
import HostCore
import Simulation
import Synchronization
import Testing

/// Advertising events at the interval plus advDelay, heard by scanners as reports with a measured RSSI; on
/// virtual time (as every fixture world), so each scan window holds what the air sent in it on any machine.
@Suite struct AdvertisingTests {
    static let world = SimulatedWorldFixture.twoControllers

    /// Collects reports from one advertiser with their arrival times on the scanner's clock.
    final class Reports: Sendable {
        let items = Mutex<[(ContinuousClock.Instant, AdvertisingReport)]>([])
        func add(_ report: AdvertisingReport, at instant: ContinuousClock.Instant) -> Int { items.withLock { $0.append((instant, report)); return $0.count } }
        var all: [(ContinuousClock.Instant, AdvertisingReport)] { items.withLock { $0 } }
    }

    /// Scans for `duration` (or until `limit` reports) and returns the advertiser's reports.
    static func scan(_ scanner: HCIHost, for advertiser: BDAddress, type: LEScanType = .passive, filterDuplicates: Bool = false,
                     duration: Duration, limit: Int = 1000) async throws -> [(ContinuousClock.Instant, AdvertisingReport)] {
        let reports = Reports()
        let done = try await scanner.expect("\(limit) reports", timeout: duration) { event -> Int? in
            guard case .hci(.le(.advertisingReports(let batch))) = event else { return nil }
            var count = 0
            for report in batch where report.address == advertiser { count = reports.add(report, at: scanner.loop.now) }
            return count >= limit ? count : nil
        }
        try await scanner.send(LESetScanParameters(type: type))
        try await scanner.send(LESetScanEnable(true, filterDuplicates: filterDuplicates))
        _ = try await HostScenarios.valueOrTimeout(done, on: scanner)
        try await scanner.send(LESetScanEnable(false))
        return reports.all
    }

    @Test func everyAdvertisingEventIsReportedWithRSSIInRange() async throws {
        try await SimulatedWorldFixture.with(Self.world, hosts: ["central", "peripheral"]) { _, hosts in
            let (scanner, advertiser) = (hosts[0], hosts[1])
            let address = try #require(await advertiser.controllerInfo?.address)
            try await HostScenarios.advertise(advertiser, name: "HIL-Sim", interval: 0x0020) // 20 ms
            let reports = try await Self.scan(scanner, for: address, duration: .seconds(2), limit: 10)
            #expect(reports.count == 10)
            // The peripheral is configured at -48 dBm with ±2 dB jitter.
            #expect(reports.allSatisfy { (-50...(-46)).contains($0.1.rssi) })
            #expect(reports.allSatisfy { $0.1.isConnectable && !$0.1.isScanResponse && $0.1.advertisingData.localName == "HIL-Sim" })
            // Events are advInterval + advDelay apart, advDelay 0–10 ms (Core v5.4 Vol 6 Part B §4.4.2.2.1); a
            // scanner whose window is its interval hears every one, at its instant on the world's clock.
            let gaps = zip(reports, reports.dropFirst()).map { $0.0.duration(to: $1.0) }
            #expect(gaps.allSatisfy { (.milliseconds(20) ... .milliseconds(30)).contains($0) }, "gaps \(gaps)")
        }
    }

    @Test func activeScanGetsTheScanResponsePassiveDoesNot() async throws {
        try await SimulatedWorldFixture.with(Self.world, hosts: ["central", "peripheral"]) { _, hosts in
            let (scanner, advertiser) = (hosts[0], hosts[1])
            let address = try #require(await advertiser.controllerInfo?.address)
            let response = AdvertisingData.make(name: "HIL-Response").encoded()
            try await HostScenarios.advertise(advertiser, name: "HIL-Sim", scanResponse: response)
            let active = try await Self.scan(scanner, for: address, type: .active, duration: .milliseconds(150))
            #expect(active.contains { $0.1.isScanResponse && $0.1.data == response })
            let passive = try await Self.scan(scanner, for: address, type: .passive, duration: .milliseconds(150))
            #expect(!passive.isEmpty && !passive.contains { $0.1.isScanResponse })
        }
    }

    @Test func filterDuplicatesReportsEachAdvertiserOnce() async throws {
        try await SimulatedWorldFixture.with(Self.world, hosts: ["central", "peripheral"]) { _, hosts in
            let (scanner, advertiser) = (hosts[0], hosts[1])
            let address = try #require(await advertiser.controllerInfo?.address)
            try await HostScenarios.advertise(advertiser, name: "HIL-Sim", scanResponse: [0x02, 0x0A, 0x00])
            let reports = try await Self.scan(scanner, for: address, type: .active, filterDuplicates: true, duration: .milliseconds(200))
            #expect(reports.filter { !$0.1.isScanResponse }.count == 1)
            #expect(reports.filter { $0.1.isScanResponse }.count == 1)
            // A new scan starts a new duplicate filter.
            let again = try await Self.scan(scanner, for: address, filterDuplicates: true, duration: .milliseconds(100))
            #expect(again.count == 1)
        }
    }

    @Test func nonConnectableAdvertisingIsReportedAsSuch() async throws {
        try await SimulatedWorldFixture.with(Self.world, hosts: ["central", "peripheral"]) { _, hosts in
            let (scanner, advertiser) = (hosts[0], hosts[1])
            let address = try #require(await advertiser.controllerInfo?.address)
            try await advertiser.send(LESetAdvertisingParameters(intervalMin: 0x20, intervalMax: 0x20, type: .nonConnectableUndirected))
            try await advertiser.send(LESetAdvertisingEnable(true))
            let reports = try await Self.scan(scanner, for: address, duration: .seconds(1), limit: 2)
            #expect(reports.count == 2 && reports.allSatisfy { !$0.1.isConnectable && $0.1.eventType == [.legacy] })
        }
    }

    @Test func aConnectionEndsAdvertising() async throws {
        try await ConnectedPair.with { pair in
            #expect(await pair.world.air.statistics().advertisers == 0)
            let status = try await HostScenarios.status(of: LESetAdvertisingEnable(true), on: pair.peripheral)
            #expect(status == .success)
            #expect(await pair.world.air.statistics().advertisers == 1)
        }
    }
}
