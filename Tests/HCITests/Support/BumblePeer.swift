import Foundation
import TestSupport
import Synchronization
@testable import HCI

/// Google's Bumble (PyPI `bumble`, in the .venv that scripts/peers/venv makes) as an independent peer:
/// an accessory process, or a central process that prints JSON.
enum BumblePeer {
    static let python = BtvirtPeer.repositoryRoot.appendingPathComponent(".venv/bin/python").path
    static let scripts = BtvirtPeer.repositoryRoot.appendingPathComponent("scripts/peers")

    /// Makes sure the venv exists (scripts/peers/venv installs bumble and rootcanal into it).
    static func ensureVenv() async throws {
        if FileManager.default.isExecutableFile(atPath: python) { return }
        let made = await runProgram(scripts.appendingPathComponent("venv").path, [])
        guard made.status == 0 else { throw TestFailure("cannot create the Python venv for Bumble: \(made.output)") }
    }

    /// A running Bumble accessory; `stop()` kills it (only it: the process this helper started).
    final class Accessory: Sendable {
        let process: Process
        let address: String

        init(process: Process, address: String) {
            self.process = process
            self.address = address
        }

        /// SIGTERM, then SIGKILL if it has not exited within 3 s; waits on a Dispatch thread, not the pool.
        func stop() async {
            let process = process
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    if process.isRunning { process.terminate() }
                    let deadline = Date().addingTimeInterval(3)
                    while process.isRunning && Date() < deadline { usleep(10_000) }
                    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                    process.waitUntilExit()
                    continuation.resume()
                }
            }
        }
    }

    /// Starts `bumble-accessory.py` on `transport` and waits (up to 10 s) for its `READY` line.
    static func startAccessory(transport: String, name: String, address: String = "F0:F1:F2:F3:F4:F5") async throws -> Accessory {
        try await ensureVenv()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [scripts.appendingPathComponent("bumble-accessory.py").path, transport, "--name", name, "--address", address, "--interval", "30"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = await readLine(output.fileHandleForReading, timeout: .seconds(10))
        guard let line, line.hasPrefix("READY ") else {
            if process.isRunning { process.terminate() }
            throw TestFailure("the Bumble accessory on \(transport) did not print READY within 10 s (got \(line ?? "nothing"))")
        }
        return Accessory(process: process, address: String(line.dropFirst(6)))
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

    /// Reads one line from a pipe on a Dispatch thread, with a deadline.
    static func readLine(_ handle: FileHandle, timeout: Duration) async -> String? {
        let box = Mutex<CheckedContinuation<String?, Never>?>(nil)
        return await withCheckedContinuation { continuation in
            box.withLock { $0 = continuation }
            DispatchQueue.global().async {
                var bytes: [UInt8] = []
                while true {
                    let chunk = handle.readData(ofLength: 1)
                    if chunk.isEmpty || chunk.first == 0x0A { break }
                    bytes.append(contentsOf: chunk)
                }
                let line = String(decoding: bytes, as: UTF8.self)
                box.withLock { $0?.resume(returning: line); $0 = nil }
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + Double(timeout.components.seconds)) {
                box.withLock { $0?.resume(returning: nil); $0 = nil }
            }
        }
    }
}
