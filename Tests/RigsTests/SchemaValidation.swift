// Test kind: process — runs scripts/checks/check-rig-schema (python3 and jsonschema) as a child, for RigSchemaAgreementTests.
import Foundation
import Testing
import TestSupport

/// scripts/checks/check-rig-schema: Python's jsonschema 4.23.0 (scripts/peers/venv pins it) checking rigs against
/// rigs/rig.schema.json, every rig in one process, at the lowest CPU priority.
enum SchemaValidation {
    /// One violation jsonschema found, at a field path as our reader writes it (`accessories[0].power.port`).
    struct Violation: Decodable, Sendable, CustomStringConvertible {
        let path: String
        let message: String
        var description: String { "\(path): \(message)" }
    }

    struct Verdict: Decodable {
        let id: String
        let errors: [Violation]
    }

    static let script = repositoryRoot.appendingPathComponent("scripts/checks/check-rig-schema").path

    /// Runs the script (through `nice -n 19`) and returns its exit status and output; records an issue
    /// naming what is missing when it cannot run (no python3, no jsonschema: run scripts/peers/venv).
    static func run(_ arguments: [String]) async throws -> (status: Int32, stdout: String) {
        let ran = await runProgramCapturing("/usr/bin/nice", ["-n", "19", script] + arguments)
        let status = ran.termination?.exitStatus ?? 127
        if status == 127 || ran.stderr.contains("needs Python's jsonschema") {
            Issue.record("scripts/checks/check-rig-schema cannot run (it needs python3 and jsonschema: run scripts/peers/venv): \(ran.stderr)")
            throw CancellationError()
        }
        return (status, ran.stdout)
    }

    /// The violations of each rig text (an empty list: valid), by id.
    static func validate(_ rigs: [(id: String, text: String)]) async throws -> [String: [Violation]] {
        let list = FileManager.default.temporaryDirectory.appendingPathComponent("rig-variants-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: list) }
        let items = rigs.map { "{\"id\": \(RigVariants.quote($0.id)), \"rig\": \($0.text)}" }
        try Data(("[" + items.joined(separator: ",\n") + "]").utf8).write(to: list)
        let ran = try await run(["--variants", list.path])
        try #require(ran.status == 0, "check-rig-schema exited \(ran.status): \(ran.stdout.prefix(500))")
        let verdicts = try JSONDecoder().decode([Verdict].self, from: Data(ran.stdout.utf8))
        #expect(verdicts.count == rigs.count, "jsonschema judged \(verdicts.count) of \(rigs.count) rigs")
        return Dictionary(verdicts.map { ($0.id, $0.errors) }, uniquingKeysWith: { first, _ in first })
    }
}
