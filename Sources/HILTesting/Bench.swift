import DeviceControl
import Foundation
import HCI
import HILRunner

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
    var switches: [String: any PowerSwitch] = [:]
    /// Why the bench is broken, once it is: the remaining tests are skipped with this cause.
    public private(set) var brokenReason: String?
    var loadError: String?

    /// The rig file's path: `HIL_RIG`, else this package's rigs/simulated.json.
    public nonisolated static var rigPath: String? {
        if let path = ProcessInfo.processInfo.environment["HIL_RIG"], !path.isEmpty { return path }
        return Rig.defaultPath() ?? BenchAccessories.packageRigPath
    }

    /// Loads the rig, takes the lock, starts the simulated runtime; idempotent.
    public func lease() async throws(BenchError) -> Rig {
        if let rig { return rig }
        if let loadError { throw BenchError(loadError) }
        do {
            guard let path = Bench.rigPath else { throw BenchError("no rig: set HIL_RIG to a rig file") }
            let rig = try Rig.load(path: path)
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
            } else {
                for description in rig.powerSwitches {
                    switches[description.name] = try PowerSwitchFactory.makeSwitch(description)
                }
            }
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

    /// The power switch (port) that powers an accessory, if the rig has one.
    public func powerSwitch(for accessory: String) -> (any PowerSwitch)? {
        if let runtime { return runtime.powerSwitch(for: accessory) }
        guard let reference = rig?.accessory(named: accessory)?.power else { return nil }
        return switches[reference.switchName]
    }

    /// The switch port that powers the adapter itself, when the rig has one.
    public var adapterPowerSwitch: (any PowerSwitch)? {
        if let runtime { return runtime.adapterPowerSwitch() }
        return rig?.adapter.power.flatMap { switches[$0.switchName] }
    }

    /// Whether the adapter can be USB-reset (simulated adapters can; real ones through libusb).
    public var canResetAdapterUSB: Bool {
        guard let rig else { return false }
        return runtime != nil || rig.adapter.moniker.hasPrefix("usb:")
    }

    /// Opens the central adapter's transport, capturing to `capturePath`.
    func openAdapter(capturePath: String?) throws -> HCIHost {
        guard let rig else { throw BenchError("the bench is not leased") }
        if let runtime, case .simulated(let name) = try TransportMoniker(parsing: rig.adapter.moniker) {
            return try ControllerOpener.makeHost(transport: try runtime.openTransport(named: name), moniker: rig.adapter.moniker,
                                                 capturePath: capturePath)
        }
        return try ControllerOpener.openHost(moniker: rig.adapter.moniker, capturePath: capturePath)
    }

    /// USB-resets the adapter (simulated: the controller comes back fresh; real: libusb_reset_device).
    func resetAdapterUSB() async throws {
        guard let rig else { throw BenchError("the bench is not leased") }
        if let runtime, case .simulated(let name) = try TransportMoniker(parsing: rig.adapter.moniker) {
            try await runtime.usbReset(adapter: name)
        } else {
            throw BenchError("USB reset of \(rig.adapter.moniker) is not available from the suites yet")
        }
    }

    /// Climbs the recovery ladder for an adapter that does not answer; returns a working host (already
    /// reset) when a rung brought it back, and the steps either way.
    func recoverAdapter(capturePath: String?, after error: any Error) async -> (host: HCIHost?, steps: [RecoveryStep]) {
        guard let rig else { return (nil, []) }
        let slot = HostSlot()
        let adapterSwitch = adapterPowerSwitch
        let moniker = rig.adapter.moniker
        let openHost: @Sendable () async throws -> HCIHost = { [self] in try await self.openAdapter(capturePath: capturePath) }
        var usbReset: (@Sendable () async throws -> String)?
        if canResetAdapterUSB {
            usbReset = { [self] in
                try await self.resetAdapterUSB()
                return "USB reset of \(moniker)"
            }
        }
        let ladder = RecoveryLadder.standard(adapter: moniker, slot: slot, openHost: openHost, usbReset: usbReset, powerSwitch: adapterSwitch)
        let outcome = await ladder.climb()
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
            guard let powerSwitch = powerSwitch(for: accessory.name) else { continue }
            if try await powerSwitch.state().state != .on { _ = try await powerSwitch.on() }
        }
    }
}

/// The bench, not the product, failed: an adapter that stops answering, a switch that cannot be
/// verified, a missing peer. Tests that end with it get the infrastructure-error verdict.
public struct BenchError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
