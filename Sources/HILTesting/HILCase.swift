import Support
import BenchOperations
import DeviceControl
import Foundation
import EventLoops
import GATT
import SMP
import Roles
import HILResults
import PowerMeters
import Simulation
import Rigs
import Synchronization
import Testing

/// One test case on the bench: the accessory under test, the central (a fresh host on the adapter,
/// reset, with this case's btsnoop capture), the timeline and measurements. `HILCase.run` brings the
/// bench to a known state, runs the body, classifies what went wrong (product failure or bench
/// failure) and writes the case's record for `hil run`.
public final class HILCase: Sendable {
    public let rig: Rig
    public let accessory: Rig.Accessory?
    /// The central: a fresh host on the adapter, reset; replaced by `resetAdapterUSB()`.
    public var central: LEDevice { centralBox.withLock { $0 } }
    private let centralBox: Mutex<LEDevice>
    /// The bench's clock: virtual time on a simulated bench (durations are as at real time), else real
    /// time. Measure transitions on it (`clock.now`, `Task.sleep(for:clock:)`).
    public let clock: LoopClock
    let started: ContinuousClock.Instant
    let startDate = Date()
    /// The central's bonds during this case (a fresh store per case: every case pairs anew).
    public let bonds = InMemoryBondStore()
    /// This case's capture (the central as controller 0, a simulated accessory as controller 1, every
    /// timeline mark as a system note), when one is taken.
    public let capture: CaseCapture?
    let state = Mutex<(timeline: [TimelineEvent], measurements: [HILResults.Measurement], properties: [String: String])>(([], [], [:]))
    /// The meter on the accessory's supply, when the rig gives it one: each span marked gets its energy.
    let meter: (any AccessoryMeter)?
    /// The spans marked with a duration (`mark(_:_:duration:)`), measured by the meter when the case ends.
    let meteredSpans = Mutex<[MeteredSpan]>([])
    /// Where the steps that threw were called from (`located`).
    let throwSites = ThrowSites()
    /// The links this case connected (`connect(to:)`): their GATT clients' protocol violations are read
    /// directly when the case ends, not only as reported to the host.
    let links = Mutex<[LEConnection]>([])

    init(rig: Rig, accessory: Rig.Accessory?, central: LEDevice, clock: LoopClock, capture: CaseCapture?, meter: (any AccessoryMeter)? = nil) {
        self.meter = meter
        self.clock = clock
        self.capture = capture
        self.started = clock.now
        self.rig = rig
        self.accessory = accessory
        self.centralBox = Mutex(central)
    }

    /// Power-cycles the adapter through its own switch port, then opens and resets a new host on it;
    /// returns the new central, captured as the old one was.
    @discardableResult
    public func powerCycleAdapter(offTime: Duration = .milliseconds(200), sourceLocation: SourceLocation = #_sourceLocation) async throws -> LEDevice {
        try await located(sourceLocation) {
            guard let powerSwitch = await Bench.shared.adapterPowerPort else {
                throw BenchError("the rig names no switch for the adapter's power")
            }
            let old = central
            let start = clock.now
            do {
                let transition = try await powerSwitch.cycle(offTime: offTime)
                noteVerification(transition)
                mark(.adapter, "adapter power cycle: \(transition.verification)", duration: start.duration(to: clock.now))
            } catch {
                mark(.adapter, "adapter power cycle failed: \(error)", failure: true)
                throw BenchError("\(powerSwitch.name): \(error)")
            }
            return try await reopenAdapter(replacing: old, after: "a power cycle")
        }
    }

    /// USB-resets the adapter: closes the central's host (a reset re-enumerates the device, and libusb
    /// resets only a device no one has claimed), resets it (`libusb_reset_device` on a real dongle), then
    /// opens and resets a new host on it; returns the new central, captured as the old one was.
    @discardableResult
    public func resetAdapterUSB(sourceLocation: SourceLocation = #_sourceLocation) async throws -> LEDevice {
        try await located(sourceLocation) {
            let old = central
            await old.close()
            let start = clock.now
            let done: String
            do {
                done = try await Bench.shared.resetAdapterUSB()
            } catch {
                mark(.adapter, "USB reset failed: \(error)", failure: true)
                throw BenchError("USB reset of \(rig.adapter.moniker): \(error)")
            }
            mark(.adapter, done, duration: start.duration(to: clock.now))
            return try await reopenAdapter(replacing: old, after: "a USB reset")
        }
    }

    /// Closes the old central (if still open), opens and resets a new host on the adapter, and makes it the central.
    func reopenAdapter(replacing old: LEDevice, after what: String) async throws -> LEDevice {
        await old.close()
        let start = clock.now
        let fresh: LEDevice
        do {
            fresh = LEDevice(host: try await Bench.shared.openAdapter(capture: capture?.centralTarget))
            try await fresh.start()
            await fresh.configureSecurity(pairing: await old.pairingOptions, bonds: await old.bondStore, identity: await old.identity)
        } catch {
            mark(.adapter, "reopening after \(what) failed: \(error)", failure: true)
            throw BenchError("\(rig.adapter.moniker) did not come back after \(what): \(error)")
        }
        mark(.adapter, "adapter reopened and reset after \(what)", duration: start.duration(to: clock.now))
        centralBox.withLock { $0 = fresh }
        return fresh
    }

    /// Records, for the results, a transition the rig accepted without verification (`"verify": "none"`):
    /// the record, JUnit and the report then say the power was unverified.
    func noteVerification(_ transition: PowerTransition) {
        guard case .unverified(let reason) = transition.verification else { return }
        state.withLock { $0.properties[TestRecord.PropertyKey.powerVerification] = "unverified (\(transition.switchName) \(transition.action): \(reason))" }
    }

    /// Seconds since the case started.
    public var elapsed: Double { started.duration(to: clock.now) / .seconds(1) }

    /// Records an instant (or, with `duration`, a span ending now) on a timeline lane, and as a system note
    /// in the capture (`hil: power: power off: verified …`).
    public func mark(_ lane: TimelineEvent.Lane, _ label: String, duration: Duration? = nil, failure: Bool = false) {
        let now = elapsed
        let length = duration.map { $0 / .seconds(1) }
        state.withLock { $0.timeline.append(TimelineEvent(offset: now - (length ?? 0), duration: length, lane: lane, label: label, isFailure: failure)) }
        if let duration { measureEnergy(lane, label, lasting: duration, endingAt: now) }
        capture?.note("\(lane.rawValue)\(failure ? " FAILED" : ""): \(label)")
    }

    /// With a meter: keeps the span of `duration` that ends now, to be measured when the case ends (a real
    /// meter's samples of it may still be on their way).
    func measureEnergy(_ lane: TimelineEvent.Lane, _ label: String, lasting duration: Duration, endingAt offset: Double) {
        guard meter != nil else { return }
        let end = clock.now
        meteredSpans.withLock {
            $0.append(MeteredSpan(lane: lane, label: label, offset: offset - duration / .seconds(1), start: end.advanced(by: .zero - duration), end: end))
        }
    }

    /// The energy of every span marked, in the order marked; an error of the meter ends the list with it.
    func measuredEnergy() async throws -> [TransitionEnergy] {
        guard let meter else { return [] }
        var measured: [TransitionEnergy] = []
        for span in meteredSpans.withLock({ $0 }) {
            let figures = try await meter.figures(from: span.start, to: span.end)
            measured.append(TransitionEnergy(lane: span.lane, label: span.label, offset: span.offset, duration: span.seconds,
                                             averageMicroamperes: figures.averageMicroamperes, chargeMicrocoulombs: figures.chargeMicrocoulombs,
                                             energyMicrojoules: figures.energyMicrojoules,
                                             lostSamples: figures.lostSamples > 0 ? figures.lostSamples : nil))
        }
        return measured
    }

    /// The figures of [`start`, `end`) on the bench's clock from the meter on the accessory's supply; a bench
    /// error when the rig gives it none.
    package func energy(from start: LoopClock.Instant, to end: LoopClock.Instant) async throws -> CurrentFigures {
        guard let meter else { throw BenchError("the rig gives \(accessory?.name ?? "this test") no meter (a rig accessory's \"meter\")") }
        return try await meter.figures(from: start, to: end)
    }

    /// The accessory's energy budgets; a bench error when the rig declares none.
    public func energyBudgets() throws -> AccessoryEnergy {
        guard let energy = accessory?.energy else { throw BenchError("the rig declares no energy budgets for \(accessory?.name ?? "this test")") }
        return energy
    }

    /// Records a measurement (seconds are stored as milliseconds).
    public func measure(_ name: String, _ value: Duration, budget: Duration? = nil) {
        state.withLock { $0.measurements.append(Measurement(name: name, value: value / .milliseconds(1), unit: "ms", budget: budget.map { $0 / .milliseconds(1) })) }
    }

    public func measure(_ name: String, value: Double, unit: String, budget: Double? = nil, samples: [Double]? = nil) {
        state.withLock { $0.measurements.append(HILResults.Measurement(name: name, value: value, unit: unit, budget: budget, samples: samples)) }
    }

    /// The accessory's switch port (its rig `power.switch` restricted to `power.port`); its transitions
    /// must be verified unless the rig accepts unverified ones for that switch. A bench error when the rig has none.
    public func powerSwitch() async throws -> any PowerSwitch {
        guard let accessory, let powerSwitch = await Bench.shared.powerPort(for: accessory.name) else {
            throw BenchError("the rig has no power switch for \(accessory?.name ?? "this test")")
        }
        return powerSwitch
    }

    /// Switches the accessory's power, verified; a switch that cannot be verified is a bench failure.
    public func power(_ on: Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await located(sourceLocation) {
            let powerSwitch = try await powerSwitch()
            let start = clock.now
            do {
                let transition = on ? try await powerSwitch.on() : try await powerSwitch.off()
                noteVerification(transition)
                mark(.power, "power \(on ? "on" : "off"): \(transition.verification)", duration: start.duration(to: clock.now))
            } catch {
                mark(.power, "power \(on ? "on" : "off") failed: \(error)", failure: true)
                throw BenchError("\(powerSwitch.name): \(error)")
            }
        }
    }

    /// Finds the accessory by its rig match, within `timeout`; records when it was first seen.
    public func findAccessory(timeout: Duration, sourceLocation: SourceLocation = #_sourceLocation) async throws -> ScanResult {
        try await located(sourceLocation) {
            guard let accessory else { throw BenchError("this test has no accessory") }
            return try await step(.advertising) {
                try await central.find(accessory.match, timeout: timeout)
            } mark: { found, _ in
                "advertising report from \(found.address) RSSI \(found.rssi)"
            }
        }
    }

    /// Connects to the accessory with the rig's parameters, within the connect budget.
    public func connect(to found: ScanResult, sourceLocation: SourceLocation = #_sourceLocation) async throws -> LEConnection {
        try await located(sourceLocation) {
            try await step(.connection) {
                try await central.connect(to: found.address, type: found.addressType, parameters: rig.connectionParameters,
                                          timeout: rig.budgets.connect)
            } mark: { link, took in
                measure("connect", took, budget: rig.budgets.connect)
                links.withLock { $0.append(link) }
                return "LE Connection Complete handle 0x\(String(link.handle, radix: 16))"
            }
        }
    }

    /// Discovers the accessory's GATT database, within the discovery budget.
    public func discover(_ link: LEConnection, sourceLocation: SourceLocation = #_sourceLocation) async throws -> GATTServiceTree {
        try await located(sourceLocation) {
            let budget = rig.budgets.discovery
            return try await step(.discovery) {
                try await withDeadline(budget, clock: clock, timeout: { RoleError.timeout(awaited: "GATT discovery", timeout: budget) }) {
                    try await link.gatt.discoverAll()
                }
            } mark: { tree, took in
                measure("discovery", took, budget: budget)
                return "discovered \(tree.services.count) services"
            }
        }
    }

    /// Runs one step of the case and puts it on the timeline's `lane` with how long it took: labelled by
    /// `mark` (which may also record measurements) when it succeeds, by the error (a failure) when it throws.
    func step<T>(_ lane: TimelineEvent.Lane, _ body: () async throws -> T,
                 mark label: (T, Duration) -> String) async throws -> T {
        let start = clock.now
        do {
            let value = try await body()
            let took = start.duration(to: clock.now)
            mark(lane, label(value, took), duration: took)
            return value
        } catch {
            mark(lane, "\(error)", duration: start.duration(to: clock.now), failure: true)
            throw error
        }
    }
}
