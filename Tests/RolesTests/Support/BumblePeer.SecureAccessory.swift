// Test kind: peer — Bumble's secure accessory and central, child processes on real time.
import Support
import DeviceControl
import Foundation
import TestSupport

/// Bumble peers that require security, for interop tests of our SMP: `bumble-secure-accessory.py` (a
/// peripheral with a random static identity whose protected characteristic needs an encrypted link) and
/// `bumble-secure-central.py` (pairs as initiator, reads a characteristic, prints JSON). Their output
/// protocols are described at the top of each script.
extension BumblePeer {
    /// The accessory's protected service and characteristic, and the value the characteristic holds.
    static let protectedServiceUUID = "5a5e0001-6b1c-4d9e-9a5f-000000000001"
    static let protectedCharacteristicUUID = "5a5e0002-6b1c-4d9e-9a5f-000000000001"
    static let protectedValue: [UInt8] = Array("secret-42".utf8)

    /// Starts `bumble-secure-accessory.py` on `transport` and waits (up to 10 s, as `startAccessory`: Python's
    /// start-up on a loaded machine) for its `READY` line.
    /// `method` is just-works, passkey, numeric-comparison or oob; `passkey` is the one it displays
    /// (random when nil; its `PASSKEY` line says which); `keystore` a JSON file kept across runs (in
    /// memory when nil); `mitm` makes the protected value need a key from an authenticated method.
    /// `options` are passed as they are (--no-bonding, --security-request, --reject, --interval MS).
    /// Its events (`PAIRED …`, `ENCRYPTED …`, `KEY-MISSING …`, …) are read with
    /// `output.line(withPrefix:within:)`.
    static func startSecureAccessory(transport: String, name: String, address: String, method: String,
                                     passkey: String? = nil, legacy: Bool = false, keystore: String? = nil,
                                     mitm: Bool = false, options: [String] = []) async throws -> Accessory {
        try await ensureVenv()
        var arguments = [python, scripts.appendingPathComponent("bumble-secure-accessory.py").path, transport,
                         "--name", name, "--address", address, "--method", method, "--interval", "30"]
        if let passkey { arguments += ["--passkey", passkey] }
        if legacy { arguments.append("--legacy") }
        if let keystore { arguments += ["--keystore", keystore] }
        if mitm { arguments.append("--mitm") }
        arguments += options
        let child = try ChildProcess.spawn(arguments)
        let output = Accessory.Log()
        let reader = Task { for await event in child.events { output.record(event) } }
        // With --method oob an `OOB …` line comes first.
        let ready = await output.line(withPrefix: "READY ", within: .seconds(10))
        guard let ready else {
            if !output.ended { child.signalGroup(SIGTERM) }
            let printed = await output.lines()
            throw TestFailure("the secure Bumble accessory on \(transport) did not print READY within 10 s (got \(printed))")
        }
        return Accessory(child: child, address: String(ready.dropFirst(6)), output: output, reader: reader)
    }

    /// Runs `bumble-secure-central.py` (scan for `name`, connect, pair with `method` or re-encrypt from
    /// `keystore`, read `readUUID`) and returns its JSON object, plus "exit_status" (0 when the link was
    /// encrypted and the value read). The script ends itself after `timeout` seconds at the latest.
    static func runSecureCentral(transport: String, name: String, method: String, passkey: String? = nil,
                                 legacy: Bool = false, keystore: String? = nil,
                                 readUUID: String = protectedCharacteristicUUID, timeout: Double = 10,
                                 options: [String] = []) async throws -> [String: Any] {
        try await ensureVenv()
        var arguments = [scripts.appendingPathComponent("bumble-secure-central.py").path, transport, "--name", name,
                         "--method", method, "--read-uuid", readUUID, "--timeout", String(timeout)]
        if let passkey { arguments += ["--passkey", passkey] }
        if legacy { arguments.append("--legacy") }
        if let keystore { arguments += ["--keystore", keystore] }
        arguments += options
        let result = await runProgram(python, arguments)
        guard let data = result.output.split(separator: "\n").last.map({ Data($0.utf8) }),
              var object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw TestFailure("the secure Bumble central printed no JSON (exit \(result.status)): \(result.output)")
        }
        object["exit_status"] = Int(result.status)
        return object
    }
}

extension BumblePeer.Accessory.Log {
    /// The complete lines printed so far (a last line without its newline yet is left out, unless the
    /// process has ended). At once: its condition always answers, so the 1 s bound is never reached.
    func lines() async -> [String] {
        await wait(within: .seconds(1)) { Self.completeLines(of: $0) } ?? []
    }

    /// The first complete line starting with `prefix`, after skipping `skipping` such lines (to wait for
    /// a second `PAIRED`, say); nil when none came within `timeout` or the process ended without one.
    func line(withPrefix prefix: String, within timeout: Duration, skipping: Int = 0) async -> String? {
        let found: String?? = await wait(within: timeout) { state -> String?? in
            let matching = Self.completeLines(of: state).filter { $0.hasPrefix(prefix) }
            if matching.count > skipping { return .some(matching[skipping]) }
            return state.ended ? .some(nil) : nil
        }
        return found ?? nil
    }

    private static func completeLines(of state: State) -> [String] {
        var lines = state.stdout.split(separator: 0x0A, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        // The piece after the last newline is not a line yet while the process runs.
        let partial = lines.removeLast()
        if state.ended && !partial.isEmpty { lines.append(partial) }
        return lines
    }
}
