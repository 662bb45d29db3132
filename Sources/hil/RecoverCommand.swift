import BenchOperations
import DeviceControl
import Foundation
import HCITransports
import StrictJSON
import Rigs

/// `hil recover MONIKER [--switch SWITCH --port N] [--reset-timeout S] [--json] [--rig RIG.json]`: checks
/// an adapter the way the runner does between tests, and climbs the recovery ladder if it does not answer.
/// A `sim:` moniker names a controller of the rig's simulated bench (default rigs/simulated.json), whose
/// own switch port (`adapter.power`) is the last rung when the moniker is the rig's adapter.
/// Exit 0 when it answers (at once or after a rung), 2 when the bench is broken.
enum RecoverCommand {
    static let usage = "usage: hil recover MONIKER [--switch usb-hub:LOCATION --port N] [--off-time S] [--reset-timeout S] [--json] [--rig RIG.json]"

    static func run(_ arguments: Arguments) async -> ExitStatus {
        await run(arguments, drivesSimulation: false)
    }

    /// `hil recover` with, when `drivesSimulation`, a `sim:` bench run as a drive of its virtual clock (the
    /// rig's `clock`): time jumps whenever the bench waits, so the ladder's deadlines are the bench's and cost
    /// nothing — what a test of the command asks for. The CLI runs the bench at the rate of real time.
    static func run(_ arguments: Arguments, drivesSimulation: Bool) async -> ExitStatus {
        var arguments = arguments
        let moniker: String
        let json: Bool
        let resetTimeout: Duration
        let offTime: Duration
        var powerSwitch: (any PowerSwitch)?
        let rigPath: String?
        do {
            json = arguments.flag("json")
            rigPath = try arguments.option("rig")
            resetTimeout = .milliseconds(Int64((try arguments.number("reset-timeout", in: 0.05...60) ?? 2) * 1000))
            offTime = .milliseconds(Int64((try arguments.number("off-time", in: 0.1...60) ?? 2) * 1000))
            let switchText = try arguments.option("switch")
            let portText = try arguments.option("port")
            moniker = try arguments.required("a controller moniker")
            try arguments.finish()
            if let switchText {
                guard let portText, let port = Int(portText), (1...255).contains(port) else {
                    throw UsageError("--switch needs --port N (the adapter's hub port, 1-255)")
                }
                do {
                    powerSwitch = try PowerSwitchFactory.makeSwitch(PowerSwitchMoniker(switchText).description(ports: [port]))
                } catch let error as PowerSwitchError {
                    throw UsageError(error.message)
                }
            } else if portText != nil {
                throw UsageError("--port is for --switch")
            }
        } catch {
            return Diagnostics.usageError("recover", error)
        }
        let simulation: SimulatedRigRuntime?
        do {
            simulation = try simulatedBench(for: moniker, rigPath: rigPath)
        } catch {
            return fail(moniker, error)
        }
        let clock = drivesSimulation ? simulation?.world.air.clock ?? .real : .real
        let chosenSwitch = powerSwitch
        return await clock.drive { () async -> ExitStatus in
            await recover(moniker, simulation: simulation, powerSwitch: chosenSwitch, json: json, resetTimeout: resetTimeout, offTime: offTime)
        }
    }

    /// The rig's simulated bench, not yet powered, when `moniker` is a `sim:` one (as `ControllerSession.simulation`
    /// finds it); nil for any other adapter.
    static func simulatedBench(for moniker: String, rigPath: String?) throws -> SimulatedRigRuntime? {
        let rig = try ControllerSession.rig(for: moniker, rigPath: rigPath)
        guard case .simulated = try TransportMoniker(parsing: moniker), let rig else { return nil }
        return try SimulatedRigRuntime(rig: rig)
    }

    /// The one line and exit status for a bench or adapter that could not be had.
    static func fail(_ moniker: String, _ error: any Error) -> ExitStatus {
        switch error {
        case let error as HCITransportError:
            Diagnostics.fail("recover", error.description, error.kind == .invalidMoniker ? .usageError : .infrastructureError)
        case let error as InputError:
            Diagnostics.fail("recover", error.description, .usageError)
        default:
            Diagnostics.fail("recover", "\(moniker): \(error)", .infrastructureError)
        }
    }

    /// Powers the bench (if any), opens and initializes a host as the previous test would have left it, climbs
    /// the ladder and says how it went.
    static func recover(_ moniker: String, simulation: SimulatedRigRuntime?, powerSwitch: (any PowerSwitch)?, json: Bool,
                        resetTimeout: Duration, offTime: Duration) async -> ExitStatus {
        var powerSwitch = powerSwitch
        let slot = HostSlot()
        let access: AdapterAccess
        do {
            try await simulation?.powerOnAll()
            access = try AdapterAccess(moniker: moniker, runtime: simulation)
        } catch {
            await simulation?.shutdown()
            return fail(moniker, error)
        }
        if powerSwitch == nil, let simulation, simulation.rig.adapter.moniker == moniker {
            powerSwitch = simulation.adapterPowerSwitch()
        }
        let ladder = access.recoveryLadder(slot: slot, powerSwitch: powerSwitch, resetTimeout: resetTimeout, offTime: offTime)
        // What the previous test would have left: an open, initialized host (or none when that fails).
        var before: String
        do {
            let host = try await access.openHost(commandTimeout: resetTimeout)
            await slot.put(host)
            do {
                let info = try await host.initialize(timeout: resetTimeout)
                before = "opened; initialized (BD_ADDR \(info.address))"
            } catch {
                before = "opened; initialization failed: \(error)"
            }
        } catch {
            before = "cannot open: \(error)"
        }
        let outcome = await ladder.climb()
        await slot.close()
        await simulation?.shutdown()
        if json {
            print(JSONOutput.text(RecoveryReport(moniker: moniker, before: before, outcome: outcome)))
        } else {
            print("\(moniker): before: \(before)")
            for step in outcome.steps { print("  \(step)") }
        }
        switch outcome {
        case .recovered(let rung, _):
            if !json { print("\(moniker): answering after rung '\(rung)'") }
            return .success
        case .broken(let broken):
            return Diagnostics.fail("recover", broken.description, .infrastructureError)
        }
    }
}
