import BenchOperations
import DeviceControl
import Foundation
import EventLoops
import HCITransports
import HostCore
import SMP
import Rigs
import Simulation

/// The bench the suites run on: the rig named by `HIL_RIG` (default `rigs/simulated.json`), its
/// simulated runtime when it has one, its power switches, and whether it has broken during this run.
///
/// One per test process. It is leased (the rig lock taken) on first use unless `hil run` already holds
/// the lock for this process (it sets `HIL_RESULTS`).
public actor Bench {
    public static let shared = Bench()

    public private(set) var rig: Rig?
    var runtime: SimulatedRigRuntime?
    var lock: RigLock?
    /// The central adapter: how to open, USB-reset and recover it.
    var adapter: AdapterAccess?
    /// The switch ports of the accessories and of the adapter.
    var ports = RigPowerPorts()
    /// The PPK2s measuring accessories, streaming since the lease.
    var meters = BenchMeters()
    /// Why the bench is broken, once it is: the remaining tests are skipped with this cause.
    public private(set) var brokenReason: String?
    var loadError: String?
    var identity: LocalIdentity?

    /// The central's identity for this run: a random static address and IRK drawn once, so an accessory
    /// keeps recognising the central across cases, adapter resets and reopened hosts.
    public func centralIdentity() throws -> LocalIdentity {
        if let identity { return identity }
        let fresh = try LocalIdentity.randomStatic()
        identity = fresh
        return fresh
    }

    /// The rig file's path: `HIL_RIG`, else this package's rigs/simulated.json.
    public nonisolated static var rigPath: String? {
        if let path = ProcessInfo.processInfo.environment["HIL_RIG"], !path.isEmpty { return path }
        return Rig.defaultPath() ?? BenchAccessories.packageRigPath
    }

    /// The bench's clock: its simulated world's (virtual time unless the rig says `"clock": "real"`), else
    /// real time.
    public var clock: LoopClock { runtime?.world.air.clock ?? .real }

    /// Loads the rig, takes the lock, starts the simulated runtime; idempotent.
    public func lease() async throws(BenchError) -> Rig {
        if let rig { return rig }
        if let loadError { throw BenchError(loadError) }
        do {
            guard let path = Bench.rigPath else { throw BenchError("no rig: set HIL_RIG to a rig file") }
            let rig = try Rig.load(path: path)
            // Under hil run the runner holds the lock; the tests end themselves if it is killed.
            RunnerWatchdog.start()
            if ProcessInfo.processInfo.environment["HIL_RESULTS"] == nil {
                do {
                    lock = try await RigLock.acquire(rigName: rig.name, command: "swift test (HILTesting)", wait: .seconds(60))
                } catch {
                    throw BenchError("cannot lease rig \(rig.name): \(error)")
                }
            }
            if rig.simulation != nil {
                let runtime = try SimulatedRigRuntime(rig: rig)
                try await runtime.powerOnAll()
                self.runtime = runtime
                ports = RigPowerPorts(runtime: runtime)
                meters = try await BenchMeters.open(rig: rig, clock: clock)
            } else {
                // A PPK2's DUT supply is switched on the stream its meter keeps: the meters first.
                let opened = try await BenchMeters.open(rig: rig, clock: clock)
                meters = opened
                ports = try RigPowerPorts(rig: rig, switches: rig.powerSwitches) { description in
                    try opened.powerSwitch(description) ?? PowerSwitchFactory.makeSwitch(description)
                }
            }
            adapter = try AdapterAccess(moniker: rig.adapter.moniker, runtime: runtime)
            self.rig = rig
            return rig
        } catch let error as BenchError {
            loadError = error.description
            throw error
        } catch {
            loadError = "\(error)"
            throw BenchError("\(error)")
        }
    }

    /// Marks the bench broken: what remains is skipped with this cause.
    public func markBroken(_ reason: String) {
        if brokenReason == nil { brokenReason = reason }
    }

    /// The switch port that powers an accessory, if the rig has one.
    public func powerPort(for accessory: String) -> RigPowerPort? { ports.accessories[accessory] }

    /// The meter on an accessory's supply, when the rig gives it one: a simulated accessory's simulated meter, or
    /// a PPK2 streaming since the lease.
    func meter(for accessory: String) -> (any AccessoryMeter)? { runtime?.meter(for: accessory) ?? meters.accessories[accessory] }

    /// The switch port that powers the adapter itself, when the rig has one.
    public var adapterPowerPort: RigPowerPort? { ports.adapter }

    /// Whether the adapter can be USB-reset: simulated adapters, `usb:` ones, and `hci-socket:` ones on USB.
    public var canResetAdapterUSB: Bool { adapter?.canResetUSB ?? false }

    /// The adapter's access; a bench error before the lease.
    func adapterAccess() throws -> AdapterAccess {
        guard let adapter else { throw BenchError("the bench is not leased") }
        return adapter
    }

    /// Opens a host on the central adapter, capturing to `capture`.
    func openAdapter(capture: CaptureTarget?) async throws -> HCIHost {
        try await adapterAccess().openHost(capture: capture)
    }

    /// Shows a simulated accessory's own controller (its firmware's HCI traffic, its power cuts) in a test
    /// case's capture; nil stops it. Nothing to show on a real bench, whose accessories keep their HCI inside.
    func tapAccessory(_ name: String, into tap: MonitorCapture.Controller?) {
        runtime?.accessories[name]?.controller.tap(into: tap)
    }

    /// USB-resets the adapter (simulated: the controller comes back fresh; real: `libusb_reset_device`).
    /// Every host on it must be closed first. Returns what happened.
    func resetAdapterUSB() async throws -> String {
        try await adapterAccess().resetUSB()
    }

    /// Climbs the recovery ladder for an adapter that does not answer, starting with `host` when one
    /// opened (its HCI Reset is the first rung; later rungs close it); returns a working host (already
    /// reset) when a rung brought it back, and the steps either way.
    func recoverAdapter(trying host: HCIHost?, capture: CaptureTarget?, after error: any Error) async -> (host: HCIHost?, steps: [RecoveryStep]) {
        guard let adapter else { return (nil, []) }
        let slot = HostSlot(host)
        let outcome = await adapter.recoveryLadder(slot: slot, powerSwitch: ports.adapter, capture: capture).climb()
        let host = await slot.host
        switch outcome {
        case .recovered: return (host, outcome.steps)
        case .broken: return (nil, outcome.steps)
        }
    }

    /// Makes sure every accessory with a switch is powered (a known state before each test).
    func powerAllOn() async throws {
        guard let rig else { return }
        for accessory in rig.accessories {
            guard let port = ports.accessories[accessory.name] else { continue }
            if try await port.state().state != .on { _ = try await port.on() }
        }
    }
}

/// The bench, not the product, failed: an adapter that stops answering, a switch that cannot be
/// verified, a missing peer. Tests that end with it get the infrastructure-error verdict.
public struct BenchError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
