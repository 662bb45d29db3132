import BenchOperations
import DeviceControl
import Foundation
import HCI
import RigFormat
import Rigs

/// `hil recover MONIKER [--switch SWITCH --port N] [--reset-timeout S] [--json] [--rig RIG.json]`: checks
/// an adapter the way the runner does between tests, and climbs the recovery ladder if it does not answer.
/// A `sim:` moniker names a controller of the rig's simulated bench (default rigs/simulated.json), whose
/// own switch port (`adapter.power`) is the last rung when the moniker is the rig's adapter.
/// Exit 0 when it answers (at once or after a rung), 2 when the bench is broken.
enum RecoverCommand {
    static let usage = "usage: hil recover MONIKER [--switch usb-hub:LOCATION --port N] [--off-time S] [--reset-timeout S] [--json] [--rig RIG.json]"

    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        if arguments.flag("help") { print(usage); return .success }
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
        let slot = HostSlot()
        let access: AdapterAccess
        let simulation: SimulatedRigRuntime?
        do {
            simulation = try await ControllerSession.simulation(for: moniker, rigPath: rigPath)
            access = try AdapterAccess(moniker: moniker, runtime: simulation)
        } catch let error as HCITransportError {
            return Diagnostics.fail("recover", error.description, error.kind == .invalidMoniker ? .usageError : .infrastructureError)
        } catch let error as RigError {
            return Diagnostics.fail("recover", error.description, .usageError)
        } catch {
            return Diagnostics.fail("recover", "\(moniker): \(error)", .infrastructureError)
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
