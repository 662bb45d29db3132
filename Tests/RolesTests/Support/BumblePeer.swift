// Test kind: peer — Google's Bumble, child processes on real time (on btvirt, or Rootcanal's air).
import Support
import DeviceControl
import Foundation
import TestSupport

/// Google's Bumble (PyPI `bumble`, in the .venv that scripts/peers/venv makes) as an independent peer:
/// an accessory process, or a central process that prints JSON.
enum BumblePeer {
    static let python = repositoryRoot.appendingPathComponent(".venv/bin/python").path
    static let scripts = repositoryRoot.appendingPathComponent("scripts/peers")

    /// Makes sure the venv exists (scripts/peers/venv installs bumble and rootcanal into it).
    static func ensureVenv() async throws {
        if FileManager.default.isExecutableFile(atPath: python) { return }
        let made = await runProgram(scripts.appendingPathComponent("venv").path, [])
        guard made.status == 0 else { throw TestFailure("cannot create the Python venv for Bumble: \(made.output)") }
    }

    /// Starts `bumble-accessory.py` on `transport` and waits (up to 10 s) for its `READY` line: Python's
    /// start-up, Bumble's imports and the transport's opening take a second or two on an idle machine and
    /// several on a loaded 2-core one.
    static func startAccessory(transport: String, name: String, address: String = "F0:F1:F2:F3:F4:F5") async throws -> Accessory {
        try await start("bumble-accessory.py", [transport, "--name", name, "--address", address, "--interval", "30"],
                        what: "the Bumble accessory on \(transport)")
    }

    /// Starts the peer script `script` of scripts/peers with `arguments` and waits (up to 10 s, as for the
    /// accessory) for its `READY <value>` line; the process's `address` is that value.
    static func start(_ script: String, _ arguments: [String], what: String) async throws -> Accessory {
        try await ensureVenv()
        let child = try ChildProcess.spawn([python, scripts.appendingPathComponent(script).path] + arguments)
        let output = Accessory.Log()
        let reader = Task { for await event in child.events { output.record(event) } }
        let line = await output.firstLine(within: .seconds(10))
        guard let line, line.hasPrefix("READY ") else {
            if !output.ended { child.signalGroup(SIGTERM) }
            throw TestFailure("\(what) did not print READY within 10 s (got \(line ?? "nothing"))")
        }
        return Accessory(child: child, address: String(line.dropFirst(6)), output: output, reader: reader)
    }

    /// Runs `bumble-central.py` and parses its JSON output.
    static func runCentral(transport: String, name: String, timeout: Double = 5) async throws -> [String: Any] {
        try await ensureVenv()
        let result = await runProgram(python, [scripts.appendingPathComponent("bumble-central.py").path, transport, "--name", name,
                                               "--timeout", String(timeout)])
        guard let data = result.output.split(separator: "\n").last.map({ Data($0.utf8) }),
              let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw TestFailure("Bumble central printed no JSON (exit \(result.status)): \(result.output)")
        }
        return object
    }
}
