import Support
import HCIPackets
import EventLoops
import HostCore
/// A scan under way: results so far and the caller waiting for the end.
struct ScanSession {
    let options: ScanOptions
    let started: ContinuousClock.Instant
    var results: [BDAddress: ScanResult] = [:]
    var order: [BDAddress] = []
    var continuation: CheckedContinuation<Void, Never>?
    var finished = false
    var timer: UInt64 = 0
    /// Told of each advertiser once, when it first matches the filter.
    var found: (@Sendable (ScanResult) -> Void)?
    var announced: Set<BDAddress> = []
}

extension LEDevice {
    /// Scans for advertisers (legacy or extended scanning, chosen from the controller's features) until
    /// the time limit, or until the first match when `options.stopAtFirstMatch`. Scanning is always
    /// disabled again before this returns, whatever happened.
    public func scan(_ options: ScanOptions = ScanOptions()) async throws(RoleError) -> [ScanResult] {
        try await runScan(options).matching
    }

    /// Scans as `scan(_:)` does and calls `found` with each advertiser as soon as it first matches the
    /// filter (before the scan ends), on the host's loop: for a command that streams what it finds.
    public func scan(_ options: ScanOptions, found: @escaping @Sendable (ScanResult) -> Void) async throws(RoleError) -> [ScanResult] {
        try await runScan(options, found: found).matching
    }

    /// Scans until the first advertiser matching `filter`; throws `notFound` after the time limit.
    public func find(_ filter: ScanFilter, timeout: Duration = .seconds(10), active: Bool = true) async throws(RoleError) -> ScanResult {
        let outcome = try await runScan(ScanOptions(filter: filter, timeout: timeout, active: active, stopAtFirstMatch: true))
        guard let first = outcome.matching.first else {
            throw .notFound(filter: filter, timeout: timeout, seen: outcome.seen)
        }
        return first
    }

    func runScan(_ options: ScanOptions, found: (@Sendable (ScanResult) -> Void)? = nil) async throws(RoleError) -> (matching: [ScanResult], seen: Int) {
        guard scan == nil else { throw .busy("a scan is already running") }
        var options = options
        if let address = options.filter.address, options.filter.identityResolvingKey == nil {
            // A bonded peer that advertises with resolvable private addresses is still the one asked for.
            options.filter.identityResolvingKey = await bond(for: address, type: .random)?.peerIdentityResolvingKey
        }
        let info = try await start()
        let extended = info.supportsExtendedScanning && !options.forceLegacy
        scan = ScanSession(options: options, started: clock.now, found: found)
        do {
            let own = try await scanAddressType(active: options.active)
            if extended {
                let phy = ExtendedScanPHYParameters(type: options.active ? .active : .passive, interval: options.interval, window: options.window)
                try await host.send(LESetExtendedScanParameters(ownAddressType: own, le1M: phy))
                try await host.send(LESetExtendedScanEnable(true, filterDuplicates: false))
            } else {
                try await host.send(LESetScanParameters(type: options.active ? .active : .passive, interval: options.interval, window: options.window,
                                                        ownAddressType: own))
                try await host.send(LESetScanEnable(true, filterDuplicates: false))
            }
        } catch {
            scan = nil
            throw .host(error)
        }
        if scan?.finished == false {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    // Looked at again: the await may hop executors, and the scan may have ended meanwhile.
                    guard scan?.finished == false else { continuation.resume(); return }
                    scan?.continuation = continuation
                    scan?.timer = host.loop.schedule(after: options.timeout) { [weak self] in
                        guard let self else { return }
                        self.assumeIsolated { $0.finishScan() }
                    }
                }
            } onCancel: { [host] in
                host.loop.execute { self.assumeIsolated { $0.finishScan() } }
            }
        }
        let session = scan
        scan = nil
        // Disable whatever happened above, even when this task was cancelled; a closed transport has
        // nothing left to disable.
        if await host.closedReason == nil {
            do throws(HCIError) {
                try await uncancelled(on: host.loop) { [host] () throws(HCIError) in
                    if extended { try await host.send(LESetExtendedScanEnable(false)) } else { try await host.send(LESetScanEnable(false)) }
                }
            } catch {
                throw .host(error)
            }
        } else if let reason = await host.closedReason {
            throw .host(.transportClosed(reason))
        }
        if Task.isCancelled, let session {
            throw .host(.cancelled(awaited: "advertising reports (\(session.order.count) advertisers seen)", waited: session.started.duration(to: clock.now)))
        }
        guard let session else { return ([], 0) }
        let all = session.order.compactMap { session.results[$0] }
        return (all.filter { options.filter.matches($0) }, all.count)
    }

    func scanReport(_ report: AdvertisingReport) {
        guard var session = scan, !session.finished else { return }
        let now = clock.now
        var result = session.results[report.address] ?? ScanResult(
            address: report.address, addressType: report.addressType, rssi: report.rssi, advertisingData: AdvertisingData(),
            isConnectable: false, firstSeen: session.started.duration(to: now), reportCount: 0, hasScanResponse: false,
            isExtended: !report.eventType.contains(.legacy))
        if session.results[report.address] == nil { session.order.append(report.address) }
        result.rssi = report.rssi
        result.reportCount += 1
        if report.isScanResponse {
            result.hasScanResponse = true
        } else {
            result.isConnectable = report.isConnectable
        }
        // Merge: keep the structures already known, replace those of a type the new report carries.
        let incoming = report.advertisingData.structures
        let incomingTypes = Set(incoming.map(\.type))
        result.advertisingData = AdvertisingData(structures: result.advertisingData.structures.filter { !incomingTypes.contains($0.type) } + incoming)
        session.results[report.address] = result
        let matches = session.options.filter.matches(result)
        if matches, let found = session.found, session.announced.insert(report.address).inserted { found(result) }
        let stop = session.options.stopAtFirstMatch && matches
        scan = session
        if stop { finishScan() }
    }

    func finishScan() {
        guard var session = scan, !session.finished else { return }
        session.finished = true
        host.loop.cancelTimer(session.timer)
        let continuation = session.continuation
        session.continuation = nil
        scan = session
        continuation?.resume()
    }
}
