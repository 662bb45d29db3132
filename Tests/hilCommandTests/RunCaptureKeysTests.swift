import Foundation
import Testing
import TestSupport

/// `hil run` on rigs/simulated-secure.json (the built-in pairing and bond suites, from this build's test bundle):
/// every capture of the run decodes in tshark and holds each key field only as the marker, btmon prints no
/// key, and the results directory is its owner's alone; with `--capture-keys` the same fields hold the keys.
///
/// The bench keeps the run's bonds in memory, so the keys to look for are the fields Wireshark's own
/// dissectors find (`hil pair` and `hil accessory` are checked against a bond store: CaptureKeysCommandTests,
/// AccessoryCaptureKeysTests). Separate processes on real time.
@Suite(.tags(.process)) struct RunCaptureKeysTests {
    static let rig = repositoryRoot.appendingPathComponent("rigs/simulated-secure.json").path

    /// Runs the pairing and bond suites into `out`; its own lock directory, so no other run's bench is waited for.
    static func run(into out: URL, keep: Bool) async throws {
        let locks = out.deletingLastPathComponent().appendingPathComponent("locks-\(keep)")
        // Five minutes: the test bundle's start-up and six cases on virtual time, on a loaded 2-core machine.
        let ran = try await runToCompletion(try ChildProgram.hilBinary(),
                                            ["run", "--rig", rig, "--test-bundle", try ChildProgram.testBundle(),
                                             "--filter", "PairingWithinBudget|BondSurvivesPowerCycle", "--out", out.path, "--quiet"]
                                                + (keep ? ["--capture-keys"] : []),
                                            timeout: .seconds(300), environment: ["HIL_LOCK_DIR": locks.path])
        try #require(ran.status == 0, "hil run: \(ran.output) \(ran.error)")
    }

    static func captures(_ out: URL) throws -> [String] {
        let directory = out.appendingPathComponent("captures")
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".btsnoop") }.sorted()
            .map { directory.appendingPathComponent($0).path }
    }

    @Test func aSecuredRunsCapturesHoldNoKeyAndDecode() async throws {
        try #require(Tshark.path != nil, "\(Tshark.missing)")
        let scratch = try TemporaryDirectory.make("hil-run-keys")
        defer { TemporaryDirectory.remove(scratch) }
        let out = scratch.appendingPathComponent("results/secure")
        try await Self.run(into: out, keep: false)
        let captures = try Self.captures(out)
        try #require(captures.count == 6, "\(captures)")
        var keyFields = 0
        for capture in captures {
            let name = URL(fileURLWithPath: capture).lastPathComponent
            let decoded = try await CaptureInspection.decoding(capture)
            #expect(decoded.frames == (try CaptureInspection.recordCount(capture)), "\(name)")
            #expect(decoded.broken.isEmpty, "\(name): tshark finds malformed packets: \(decoded.broken)")
            let fields = try await CaptureInspection.keyFieldValues(capture)
            keyFields += fields.count
            #expect(fields.allSatisfy { $0.value == CaptureInspection.marker }, "\(name): \(fields.filter { $0.value != CaptureInspection.marker })")
            if let btmon = await CaptureInspection.btmon(capture) {
                let lines = btmon.split(separator: "\n").filter { $0.contains("Long term key:") || $0.contains("Identity resolving key:") }
                #expect(lines.allSatisfy { $0.hasSuffix(CaptureInspection.marker) }, "\(name): \(lines)")
            }
        }
        // Every case paired: Confirm, Random, the keys distributed, LE Enable Encryption — on both sides.
        #expect(keyFields >= 6 * 8, "only \(keyFields) key fields in the run's captures")

        // The results directory and everything hil and the bench wrote in it: the owner's alone.
        for directory in ["", "captures", "records", "attachments"] {
            #expect(try CaptureInspection.mode(out.appendingPathComponent(directory).path) == 0o700, "\(directory)/")
        }
        let records = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("records").path)
            .map { "records/\($0)" }
        for file in ["junit.xml", "results.json", "report.html", ".run.json", ".swift-test.log"] + records {
            #expect(try CaptureInspection.mode(out.appendingPathComponent(file).path) == 0o600, "\(file)")
        }
        for capture in captures { #expect(try CaptureInspection.mode(capture) == 0o600, "\(capture)") }
    }

    @Test func captureKeysKeepsTheKeysInARunsCaptures() async throws {
        try #require(Tshark.path != nil, "\(Tshark.missing)")
        let scratch = try TemporaryDirectory.make("hil-run-keys")
        defer { TemporaryDirectory.remove(scratch) }
        let out = scratch.appendingPathComponent("results")
        try await Self.run(into: out, keep: true)
        let captures = try Self.captures(out)
        try #require(captures.count == 6, "\(captures)")
        for capture in captures {
            let fields = try await CaptureInspection.keyFieldValues(capture)
            #expect(fields.contains { $0.field == "bthci_cmd.le_long_term_key" }, "\(capture): \(fields)")
            #expect(fields.allSatisfy { $0.value != CaptureInspection.marker }, "\(capture): \(fields)")
        }
    }
}
