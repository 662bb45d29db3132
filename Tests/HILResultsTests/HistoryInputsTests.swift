import Foundation
@testable import HILResults
import Testing
import TestSupport

/// Which runs `hil report --history DIR…` reads: results directories and directories of them, each run
/// once, oldest first; what cannot be read is one warning line naming it.
@Suite struct HistoryInputsTests {
    @Test func anArchiveAResultsDirectoryAndALinkToOneAreEachRunOnce() throws {
        let scratch = try TemporaryDirectory.make("hil-history-inputs")
        defer { TemporaryDirectory.remove(scratch) }
        let archive = scratch.appendingPathComponent("nightly", isDirectory: true)
        let runs = try SampleHistory.write(into: archive)
        // scripts/nightly's `latest` link and its build log sit beside the runs.
        try FileManager.default.createSymbolicLink(atPath: archive.appendingPathComponent("latest").path, withDestinationPath: SampleHistory.names[4])
        try Data("build log".utf8).write(to: archive.appendingPathComponent(".build-hil.log"))
        try FileManager.default.createDirectory(at: archive.appendingPathComponent("notes"), withIntermediateDirectories: true)
        // The newest run given again on its own, first: still once, still last.
        let loaded = HistoryInputs.load([runs[4], archive, runs[0]])
        #expect(loaded.runs.map(\.layout.directory.lastPathComponent) == SampleHistory.names)
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
    }

    @Test func whatCannotBeReadIsOneWarningEachAndTheRestIsRead() throws {
        let scratch = try TemporaryDirectory.make("hil-history-inputs")
        defer { TemporaryDirectory.remove(scratch) }
        let runs = try SampleHistory.write(into: scratch.appendingPathComponent("nightly", isDirectory: true))
        let corrupt = try SampleHistory.writeCorrupt(into: scratch)
        let missing = scratch.appendingPathComponent("no-such-run")
        let file = scratch.appendingPathComponent("a-file.txt")
        try Data("x".utf8).write(to: file)
        let empty = scratch.appendingPathComponent("empty", isDirectory: true)
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        // A run whose records are fine but whose .run.json is not: unusable as a whole.
        let badContext = scratch.appendingPathComponent("bad-context", isDirectory: true)
        try SampleRecords.record("x").write(toResultsDirectory: badContext)
        try Data("[]".utf8).write(to: ResultsLayout(badContext).runContext)

        let loaded = HistoryInputs.load([runs[1], corrupt, missing, file, empty, badContext, runs[2]])
        #expect(loaded.runs.map(\.layout.directory.lastPathComponent) == [SampleHistory.names[1], SampleHistory.names[2]])
        #expect(loaded.warnings.count == 5, "\(loaded.warnings)")
        for (input, reason) in [(corrupt, "results.json: not valid results"), (missing, "no such directory"), (file, "not a directory"),
                                (empty, "neither a results directory nor a directory of results directories"), (badContext, ".run.json: not a valid run context")] {
            let lines = loaded.warnings.filter { $0.contains(input.lastPathComponent) }
            #expect(lines.count == 1 && lines.allSatisfy { $0.contains(reason) && !$0.contains("\n") }, "\(input.lastPathComponent): \(loaded.warnings)")
        }
    }

    @Test func aRunWithoutResultsJSONIsAssembledFromItsRecordsAndNothingIsWritten() throws {
        let scratch = try TemporaryDirectory.make("hil-history-inputs")
        defer { TemporaryDirectory.remove(scratch) }
        let runs = try SampleHistory.write(into: scratch)
        let layout = ResultsLayout(runs[3])
        #expect(!FileManager.default.fileExists(atPath: layout.resultsJSON.path))
        let run = try RunResults.load(runs[3])
        #expect(run.source == .records)
        #expect(run.context.gitCommit == SampleHistory.commits[3])
        #expect(run.cases.count == SampleHistory.verdicts.map { $0.runs[3].count }.reduce(0, +))
        let written = ((try? FileManager.default.contentsOfDirectory(atPath: layout.directory.path)) ?? []).sorted()
        #expect(!written.contains("results.json") && !written.contains("report.html") && !written.contains("junit.xml"), "\(written)")
    }
}
