import DeviceControl
import Foundation
import StrictJSON
import Rigs

/// `hil power SWITCH [--port N] on|off|cycle|status`, or `hil power --rig FILE NAME …`.
/// Every on/off is verified; a switch that says it switched while the devices behind it say otherwise
/// is an infrastructure error (exit 2).
enum PowerCommand {
    static let usage = """
    usage: hil power SWITCH [--port N]... on|off|cycle|status [options]
           hil power --rig FILE NAME on|off|cycle|status [options]
    switches: usb-hub:LOCATION  ykush:SERIAL (ykush: for the only board)  relay:dcttech:SERIAL
    options:  --off-time DURATION (cycle, default 2s)  --expect DEVICE (VID:PID[/SERIAL] or LOCATION, repeatable)
              --deadline SECONDS (devices to leave, default 3)  --on-deadline SECONDS (to come back, default 10)
              --method auto|sysfs|hub-request  --force (switch a ganged hub)  --repeat N (off requests)  --json
    """

    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        let json = arguments.flag("json")
        let description: PowerSwitchDescription
        let action: String
        let offTime: Duration
        do {
            let rig = try arguments.option("rig")
            let ports = try arguments.options("port").map { text -> Int in
                guard let port = Int(text), (1...255).contains(port) else { throw UsageError("--port takes a port number from 1 to 255, not '\(text)'") }
                return port
            }
            let expected = try arguments.options("expect").map { text -> DeviceExpectation in
                guard let expectation = DeviceExpectation(text) else {
                    throw UsageError("--expect takes VID:PID, VID:PID/SERIAL, a location like 1-1.4.2, or LOCATION=VID:PID, not '\(text)'")
                }
                return expectation
            }
            let deadline = try arguments.number("deadline", in: 0.001...120)
            let onDeadline = try arguments.number("on-deadline", in: 0.001...120)
            let methodText = try arguments.option("method")
            let force = arguments.flag("force")
            let repeatOff = try arguments.number("repeat", in: 1...10)
            let offTimeText = try arguments.option("off-time")
            guard let target = arguments.positional() else { throw UsageError("missing the switch (\(rig == nil ? "e.g. usb-hub:1-1.4" : "a name from the rig"))") }
            action = try arguments.required("action (on, off, cycle or status)")
            try arguments.finish()
            guard ["on", "off", "cycle", "status"].contains(action) else { throw UsageError("unknown action '\(action)': use on, off, cycle or status") }
            if let offTimeText {
                guard action == "cycle" else { throw UsageError("--off-time is for cycle") }
                guard let parsed = Duration.parse(offTimeText), parsed > .zero else { throw UsageError("--off-time takes a duration like 2s or 500ms, not '\(offTimeText)'") }
                offTime = parsed
            } else {
                offTime = .seconds(2)
            }
            var method = HubSwitchMethod.auto
            if let methodText {
                guard let parsed = HubSwitchMethod(rawValue: methodText) else { throw UsageError("--method takes auto, sysfs or hub-request, not '\(methodText)'") }
                method = parsed
            }
            var verify = PowerSwitchDescription.Verify(devices: expected)
            if let deadline { verify.offDeadline = .milliseconds(Int64(deadline * 1000)) }
            if let onDeadline { verify.onDeadline = .milliseconds(Int64(onDeadline * 1000)) }
            if let rig {
                guard ports.isEmpty, methodText == nil, !force, repeatOff == nil else {
                    throw UsageError("--port, --method, --force and --repeat come from the rig file with --rig")
                }
                let switches = try Rig.load(path: rig).powerSwitches
                guard var entry = switches.first(where: { $0.name == target }) else {
                    throw UsageError("rig file \(rig) defines no power switch '\(target)'; it defines: \(switches.isEmpty ? "none" : switches.map(\.name).joined(separator: ", "))")
                }
                entry.verify.devices += expected
                if let deadline { entry.verify.offDeadline = .milliseconds(Int64(deadline * 1000)) }
                if let onDeadline { entry.verify.onDeadline = .milliseconds(Int64(onDeadline * 1000)) }
                description = entry
            } else {
                let moniker = try PowerSwitchMoniker(target)
                let chosenPorts: [Int]
                if ports.isEmpty, case .ykush = moniker { throw UsageError("--port is required: which YKUSH port?") }
                if ports.isEmpty { throw UsageError("--port is required") }
                chosenPorts = ports
                description = moniker.description(ports: chosenPorts, method: method, force: force, repeatOff: Int(repeatOff ?? 1), verify: verify)
            }
        } catch let error as UsageError {
            return fail("\(error); see 'hil power --help'", .usageError)
        } catch let error as InputError {
            return fail(error.description, .usageError)
        } catch let error as PowerSwitchError {
            return fail(error.message, error.isUsageError ? .usageError : .infrastructureError)
        } catch {
            return fail("\(error)", .usageError)
        }

        do {
            if action == "status" {
                let actuator = try PowerSwitchFactory.actuator(for: description)
                let status = try await actuator.status()
                if json {
                    try printJSON(["switch": actuator.name, "state": status.state.description, "detail": status.detail])
                } else {
                    print("\(actuator.name): \(status)")
                }
                return .success
            }
            let powerSwitch = try PowerSwitchFactory.makeSwitch(description)
            let transition: PowerTransition
            switch action {
            case "on": transition = try await powerSwitch.on()
            case "off": transition = try await powerSwitch.off()
            default: transition = try await powerSwitch.cycle(offTime: offTime)
            }
            if json {
                var object: [String: Any] = ["switch": transition.switchName, "action": transition.action.description,
                                             "elapsedSeconds": transition.elapsed / .seconds(1), "steps": transition.steps]
                switch transition.verification {
                case .verified(let evidence): object["verified"] = true; object["evidence"] = evidence
                case .unverified(let reason): object["verified"] = false; object["reason"] = reason
                }
                try printJSON(object)
            } else {
                print("\(transition.switchName) \(transition.action): \(transition.verification) (\(transition.elapsed.seconds))")
                for step in transition.steps { print("  · \(step)") }
            }
            return .success
        } catch let error as PowerSwitchError {
            return fail(error.message, error.isUsageError ? .usageError : .infrastructureError)
        } catch is CancellationError {
            return fail("cancelled", .infrastructureError)
        } catch {
            return fail("\(error)", .infrastructureError)
        }
    }

    static func printJSON(_ object: [String: Any]) throws {
        StandardStreams.output(try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]))
        print()
    }

    static func fail(_ message: String, _ status: ExitStatus) -> ExitStatus {
        StandardStreams.error("hil power: \(message)\n")
        return status
    }
}
