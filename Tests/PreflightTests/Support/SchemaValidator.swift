// Test kind: process — runs Python (jsonschema, plistlib) for SARIFSchemaTests and BinaryPropertyListPlistlibTests.
import Foundation
import TestSupport
import Testing

/// Runs Fixtures/sarif/validate_sarif.py: Python's `jsonschema` checking SARIF logs against the OASIS
/// SARIF 2.1.0 schema (Fixtures/sarif/README.md says where both came from).
enum SchemaValidator {
    /// What the validator said, and its exit status (0: every log valid).
    struct Outcome { let status: Int32; let output: String }

    /// The repository this test file is in.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The first Python that can import `jsonschema`: the repository's `.venv`, then `python3` on PATH.
    static func python() async throws -> String {
        let candidates = [repository.appendingPathComponent(".venv/bin/python").path, "python3"]
        for candidate in candidates where await run(candidate, ["-c", "import jsonschema"]).status == 0 {
            return candidate
        }
        Issue.record("no Python with jsonschema (tried \(candidates.joined(separator: ", "))): pip install jsonschema")
        throw CancellationError()
    }

    /// Validates SARIF `logs` (JSON texts) against the schema fixture.
    static func validate(_ logs: [String]) async throws -> Outcome {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sarif-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for (index, log) in logs.enumerated() {
            let file = directory.appendingPathComponent("log\(index).sarif")
            try Data(log.utf8).write(to: file)
            paths.append(file.path)
        }
        let script = try Fixture.path("sarif/validate_sarif.py"), schema = try Fixture.path("sarif/sarif-schema-2.1.0.json")
        return await run(try await python(), [script, schema] + paths)
    }

    /// Runs `program` (a path, or a name looked up on PATH) with TestSupport's `runProgramCapturing` (no
    /// cooperative thread blocks on it) and collects its standard output, then its standard error.
    static func run(_ program: String, _ arguments: [String]) async -> Outcome {
        let ran = await runProgramCapturing("/usr/bin/env", [program] + arguments)
        return Outcome(status: ran.termination?.exitStatus ?? 127, output: ran.stdout + ran.stderr)
    }
}
