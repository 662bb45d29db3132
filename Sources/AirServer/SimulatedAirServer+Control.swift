import DeviceControl
import Foundation
import Roles
import Rigs
import Simulation

/// The control protocol: one request at a time, answered with one line, from standard input and
/// control-socket clients.
extension SimulatedAirServer {
    /// Answers one control line (see `ControlRequest`), after the requests before it.
    package func answer(_ line: String) async -> String {
        await answer(line, from: nil)
    }

    /// Answers one control line from `client` (named in the log when it asks the server to quit).
    func answer(_ line: String, from client: String?) async -> String {
        let previous = tail
        // On the server's loop: on virtual time the air's clock sees the request (and the accessories' work
        // it does) as the computation it is.
        let work = Task(executorPreference: loop) { () -> String in
            await previous?.value
            return await self.carryOut(line, from: client).line
        }
        tail = Task(executorPreference: loop) { _ = await work.value }
        return await work.value
    }

    func carryOut(_ line: String, from client: String?) async -> ControlAnswer {
        let request: ControlRequest
        switch ControlRequest.parse(line) {
        case .success(let parsed): request = parsed
        case .failure(let answer): return answer
        }
        switch request {
        case .ping: return .ok("")
        case .help: return .ok(ControlRequest.summary)
        case .quit:
            if let client { options.log("hil sim serve: quit asked by \(client)") }
            requestStop("quit")
            return .ok("quit")
        case .status: return .ok(statusText())
        case .power(let name, let action):
            guard let accessory = runtime.accessories[name] else { return .error(Self.unknownAccessory(name, runtime)) }
            return await power(name, accessory, action)
        }
    }

    func power(_ name: String, _ accessory: SimulatedAccessory, _ action: ControlRequest.PowerAction) async -> ControlAnswer {
        let powered = accessory.controller.isPoweredOn
        switch action {
        case .status:
            return .ok("\(name) \(powered ? "on" : "off")")
        case .off:
            if !powered { return .ok("\(name) off (already)") }
            await accessory.powerOff()
            return accessory.controller.isPoweredOn ? .failed("\(name): its controller is still powered after power off") : .ok("\(name) off")
        case .on:
            if powered { return .ok("\(name) on (already)") }
            do {
                try await accessory.powerOn()
                return .ok("\(name) on")
            } catch {
                return .failed("\(name): powered, but its firmware did not boot: \(error)")
            }
        }
    }

    func statusText() -> String {
        let accessories = runtime.accessories.keys.sorted().map { name in
            "\(name)=\(runtime.accessories[name]?.controller.isPoweredOn == true ? "on" : "off")"
        }
        let served = connections.keys.sorted().compactMap { connections[$0] }.map { connection in
            "\(connection.controller.name)=\(connection.controller.configuration.address)@\(connection.listener)"
        }
        return "accessories \(accessories.joined(separator: " ")); connections \(served.count)" + (served.isEmpty ? "" : " " + served.joined(separator: " "))
    }

    static func unknownAccessory(_ name: String, _ runtime: SimulatedRigRuntime) -> String {
        let known = runtime.accessories.keys.sorted()
        let shown = name.count > 40 ? String(name.prefix(40)) + "…" : name
        return "no simulated accessory named '\(shown)' (the rig's: \(known.isEmpty ? "none" : known.joined(separator: ", ")))"
    }
}
