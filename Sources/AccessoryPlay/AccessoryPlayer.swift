import HCIPackets
import EventLoops
import GATT
import Roles
import MCUmgr

/// Plays a profile's accessory on a device and runs a fault plan against whichever central connects:
/// advertises, accepts connections, records what the central does (`ActivityLog`), runs each step when
/// its trigger comes, and decides each expectation. `run()` returns when every step ran and every
/// expectation is decided, or when its task is cancelled (SIGINT, SIGTERM) — the outcome says which.
///
/// Every wait is on the clock of the device's host (`clock`): a step `at_ms: 2000` runs at exactly 2 s of that
/// clock, so on a simulated bench's virtual time a plan runs at the speed of its computation and its times
/// are exact. The player's own tasks run where the clock's work runs (`LoopClock.taskExecutor`), and it
/// waits for what the central does as events (`ActivityLog.waitForEvent`), never by looking again later.
package actor AccessoryPlayer {
    let device: LEDevice
    let profile: AccessoryProfile
    let plan: FaultPlan
    let log: ActivityLog
    /// How many `service_changed` steps ran: an odd count serves the profile with its added service.
    var databaseChanges = 0
    /// `service_changed` steps that ran with no central connected: the next connection is when it is told.
    var tellOnNextConnection: Set<Int> = []
    var current: LEConnection?
    /// The last central's link, up or not (whose bond `forget_bond` forgets when none is up).
    var lastLink: LEConnection?
    var connections = 0
    /// When each connection formed, in milliseconds from the start.
    var connectedAt: [Double] = []
    var outcomes: [StepOutcome]
    var watcher: Task<Void, Never>?
    /// Scan requests so far, by scanner and scan (`ScanSpan`), and the task that gathers them.
    var scans: [ScanSpan] = []
    var scanWatcher: Task<Void, Never>?
    /// The task that records what pairing asked of the accessory (the passkey it displays, the number it compares).
    var promptWatcher: Task<Void, Never>?
    /// For steps a central's request triggered: which request, for the step's record.
    var triggeredBy: [Int: String] = [:]
    /// The MCUboot slots the profile's `mcumgr` declares (nil without): flash, kept across its resets.
    let slots: MCUbootSlots?

    /// The clock every time and wait of the run is on: the device's host's.
    nonisolated var clock: LoopClock { log.clock }

    /// How a run ended.
    package struct Result: Sendable {
        /// Nil when the plan finished; else why it stopped early.
        package var interruption: String?
        package var events: [CentralEvent]
        package var steps: [StepOutcome]
        /// The active scans the accessory saw (empty when its controller has no extended advertising, which
        /// is what reports scan requests).
        package var scans: [ScanSpan] = []
        /// The MCUboot slots at the end, as an image state read lists them (empty without `mcumgr`).
        package var images: [AccessoryImage] = []
    }

    /// `observer` sees each event as it happens (the command prints it).
    package init(device: LEDevice, profile: AccessoryProfile, plan: FaultPlan, database: GATTDatabase,
                observer: @escaping @Sendable (CentralEvent) -> Void = { _ in }) {
        self.device = device
        self.profile = profile
        self.plan = plan
        self.log = ActivityLog(clock: device.host.loop.clock, database: database, observer: observer)
        self.slots = profile.updates.map { updates in
            MCUbootSlots(running: updates.running, slotSize: updates.slotSize, timing: updates.timing, loop: device.host.loop)
        }
        self.outcomes = plan.steps.map { step in
            StepOutcome(name: step.name, action: step.action.word, checks: step.expectations.map { expectation in
                StepOutcome.Check(key: expectation.key, limit: Double(expectation.limit), message: "not decided: the step did not run")
            })
        }
    }

    /// Starts advertising and runs the plan; throws only when the accessory cannot start advertising.
    package func run() async throws(RoleError) -> Result {
        let incoming = await device.incomingConnections()
        watcher = task { [weak self] in
            for await link in incoming { await self?.connected(link) }
        }
        let requests = await device.scanRequests()
        scanWatcher = task { [weak self] in
            for await request in requests { await self?.scanned(request) }
        }
        let pairing = await device.pairingEvents()
        promptWatcher = task { [weak self] in
            for await event in pairing {
                if case .prompt(let prompt, let peer) = event { await self?.prompted(prompt, by: peer) }
            }
        }
        try await device.start()
        let updates = await serveUpdates()
        try await advertise()
        let sources = profile.notificationSources.map { source in
            task { [weak self] in await self?.play(source) }
        }
        var interruption: String?
        for index in plan.steps.indices {
            guard await waitForTrigger(of: index) else { interruption = "interrupted before \(plan.steps[index].name)"; break }
            await perform(index)
        }
        if interruption == nil, !(await settle()) { interruption = "interrupted before every expectation was decided" }
        // Without steps it serves (updates, a phone's requests) until stopped.
        if plan.steps.isEmpty { try? await clock.sleep(until: clock.now.advanced(by: .seconds(7 * 86_400)), tolerance: nil) }
        updates?.cancel()
        watcher?.cancel()
        scanWatcher?.cancel()
        promptWatcher?.cancel()
        for source in sources { source.cancel() }
        for source in sources { await source.value }
        for index in outcomes.indices { decide(index, final: true) }
        let images = await slots?.states.map(AccessoryImage.init) ?? []
        return Result(interruption: interruption, events: log.events, steps: outcomes, scans: scans, images: images)
    }

    /// Advertises the profile, asking for scan request notifications (an advertising set, on a controller with
    /// extended advertising) so that a central's active scan shows.
    func advertise() async throws(RoleError) {
        var advertisement = profile.advertisement
        advertisement.scanRequestNotifications = true
        try await device.startAdvertising(advertisement)
        let (address, random) = await device.ownAddress()
        let kind = random ? (address.isResolvablePrivate ? "resolvable private" : "random static") : "public"
        log.record(.advertising, "advertising \"\(profile.name)\" every \(RoundedText.ms(profile.advertisingIntervalMilliseconds)) as \(address) (\(kind))")
    }

    /// A scan request: counted in its scanner's scan; the first of a scan is an event.
    func scanned(_ request: ScanRequest) {
        let at = log.milliseconds(at: request.received)
        if scans.add(scanner: request.scanner, type: request.scannerType, at: at) {
            log.record(.scan, "\(request.scanner) (\(request.scannerType)) scans actively: its first scan request", at: request.received)
        }
    }

    func connected(_ link: LEConnection) async {
        connections += 1
        current = link
        lastLink = link
        let at = log.record(.connected, handle: link.handle, "connection \(connections) from \(link.peerAddress) "
                            + "(interval \(RoundedText.ms(Double(await link.interval) * 1.25)), latency \(await link.latency), "
                            + "supervision timeout \(Int(await link.supervisionTimeout) * 10) ms)", at: link.established)
        connectedAt.append(at)
        await link.setATTInterceptor(log.interceptor(handle: link.handle))
        for index in outcomes.indices where outcomes[index].ranAt.map({ $0 <= at }) == true && outcomes[index].reconnectedAt == nil
            && outcomes[index].linkEndedAt != nil {
            outcomes[index].reconnectedAt = at
            decide(index, final: false)
        }
        for index in tellOnNextConnection {
            outcomes[index].centralToldAt = at
        }
        tellOnNextConnection = []
        for index in outcomes.indices where outcomes[index].ranAt.map({ $0 <= at }) == true && outcomes[index].nextConnectionAt == nil
            && plan.steps[index].expectations.contains(where: { if case .reencryptWithBond = $0 { true } else { false } }) {
            // A pairing step's own link does not count: the next one does.
            if plan.steps[index].action == .requirePairing, outcomes[index].paired == nil { continue }
            outcomes[index].nextConnectionAt = at
        }
        watchEncryption(of: link)
        let phyUpdates = await link.phyUpdates()
        task { [weak self] in
            // The accessory never asks for a PHY: an update is the central's request (or its controller's).
            for await update in phyUpdates {
                self?.log.record(.parameters, handle: link.handle, update.status == .success ? "PHY update: \(update.phy)"
                                 : "PHY update failed (\(update.status)): still \(update.phy)")
            }
        }
        task { [weak self] in
            let reason = try? await link.waitForDisconnection(timeout: .seconds(7 * 86_400))
            await self?.ended(link, reason: reason)
        }
    }

    func ended(_ link: LEConnection, reason: HCIStatus?) async {
        let note = await link.endedNote.map { " (\($0))" } ?? ""
        let at = log.record(.disconnected, handle: link.handle, "link ended: \(reason.map(\.description) ?? "unknown reason")\(note)")
        log.silence(link.handle, false)
        if current === link { current = nil }
        for index in outcomes.indices where plan.steps[index].action.endsLink && outcomes[index].ranAt != nil && outcomes[index].linkEndedAt == nil {
            outcomes[index].linkEndedAt = at
            // Without advertise_after_ms the device advertises again as the link ends.
            if plan.steps[index].advertiseAfterMilliseconds == nil && plan.steps[index].action != .vanish {
                outcomes[index].advertisedAgainAt = at
            }
        }
    }

    /// Starts `body` as a task of the run, where the clock's work runs (on virtual time, its loop: a task
    /// elsewhere would compute while the clock, seeing its loops idle, jumps ahead).
    @discardableResult
    nonisolated func task(_ body: sending @escaping () async -> Void) -> Task<Void, Never> {
        Task(executorPreference: clock.taskExecutor, operation: body)
    }

    /// Waits for step `index`'s trigger; false when cancelled first. A time trigger is a sleep to its instant
    /// on the clock; the others wait for the event that can meet them (a connection, a link's end, a request).
    func waitForTrigger(of index: Int) async -> Bool {
        let previousRanAt = index > 0 ? outcomes[index - 1].ranAt ?? 0 : 0
        while !Task.isCancelled {
            // Counted before looking, so an event recorded while this looks wakes the wait below.
            let seen = log.count
            var deadline: ContinuousClock.Instant?
            switch plan.steps[index].trigger {
            case .atTime(let milliseconds):
                deadline = log.started.advanced(by: .milliseconds(milliseconds))
                if let deadline, clock.now >= deadline { return true }
            case .afterConnect(let milliseconds, let count):
                if connections >= count, let link = current, let at = connectedAt.last, at >= previousRanAt, await link.isConnected {
                    let due = link.established.advanced(by: .milliseconds(milliseconds))
                    if clock.now >= due { return true }
                    deadline = due
                }
            case .afterRequest(let request, let characteristic):
                if let event = log.firstEvent(request.eventKind, of: characteristic, from: previousRanAt) {
                    triggeredBy[index] = "after the central's \(event.detail)"
                    return true
                }
            }
            await log.waitForEvent(after: seen, until: deadline)
        }
        return false
    }

    /// Runs step `index`'s action.
    func perform(_ index: Int) async {
        let step = plan.steps[index]
        let link = current
        let stayAway = step.advertiseAfterMilliseconds
        if stayAway != nil || step.action == .vanish { try? await device.stopAdvertising() }
        let ran = clock.now
        let ranAt = log.record(.fault, handle: link?.handle, "\(step.name): \(step.action.word)"
                                + (triggeredBy[index].map { " (\($0))" } ?? "") + (stayAway.map { ", advertising again after \($0) ms" } ?? ""),
                               at: ran)
        outcomes[index].ranAt = ranAt
        switch step.action {
        case .disconnect(let reason):
            if let link { _ = try? await link.disconnect(reason: reason) }
        case .vanish:
            do { try await device.host.initialize() } catch {
                log.record(.fault, "\(step.name): HCI Reset failed: \(error)")
            }
        case .stopAnsweringATT:
            if let link {
                log.silence(link.handle, true)
                _ = try? await link.waitForDisconnection(timeout: .seconds(7 * 86_400))
            }
        case .serviceChanged:
            await changeDatabase(step: index, link: link)
            return
        case .notifyFlood(let characteristic, let milliseconds):
            await notifyFlood(step: index, link: link, characteristic: characteristic, milliseconds: milliseconds)
            return
        case .updateParameters(let parameters):
            await updateParameters(step: index, link: link, parameters)
            return
        case .requirePairing, .refusePairing, .forgetBond:
            await security(step: index, link: link)
            return
        case .rotateAddress:
            if let link, await link.isConnected {
                log.record(.advertising, handle: link.handle, "\(step.name): a link is up; the next advertising has a new address")
            } else {
                do { try await advertise() } catch { log.record(.fault, "\(step.name): cannot advertise with a new address: \(error)") }
            }
            return
        }
        if link == nil { outcomes[index].linkEndedAt = ranAt }
        if stayAway != nil || step.action == .vanish {
            // One sleep for the rest of the stay away (it ends early only when cancelled).
            try? await clock.sleep(until: ran.advanced(by: .milliseconds(stayAway ?? 0)), tolerance: nil)
            guard !Task.isCancelled else { return }
            do {
                try await advertise()
                outcomes[index].advertisedAgainAt = log.milliseconds()
            } catch {
                log.record(.fault, "\(step.name): cannot advertise again: \(error)")
            }
        } else if link == nil {
            outcomes[index].advertisedAgainAt = ranAt
        }
    }

    /// Waits until every expectation is decided; false when cancelled first. Between looks it waits for the
    /// next event, or for the instant a check's limit runs out (`nextDecision`), whichever comes first.
    func settle() async -> Bool {
        while !Task.isCancelled {
            let seen = log.count
            for index in outcomes.indices { decide(index, final: false) }
            if outcomes.allSatisfy({ $0.checks.allSatisfy { $0.passed != nil } }) { return true }
            await log.waitForEvent(after: seen, until: nextDecision())
        }
        return false
    }
}

/// Milliseconds as a report shows them: to 0.1 ms.
enum RoundedText {
    static func ms(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? "\(Int(tenths)) ms" : "\(tenths) ms"
    }
}
