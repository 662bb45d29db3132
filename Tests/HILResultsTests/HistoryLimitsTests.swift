import Foundation
@testable import HILResults
import Testing
import TestSupport

/// `hil report --history` within `HistoryLimits`: a run file past the input limit is refused by its size (before:
/// a 288 MB results.json was read whole, 1.28 GB resident), a run keeps only what the history uses, and
/// history.html shows the latest runs and the first tests and says what it left out (before: 20,000 tests made
/// a page of hundreds of megabytes).
@Suite struct HistoryLimitsTests {
    /// `runs` runs of `tests` tests each, a day apart, on one commit; test `t` fails in run `r` when `fails(r, t)`.
    static func history(runs: Int, tests: Int, fails: (Int, Int) -> Bool = { _, _ in false }) -> RunHistory {
        RunHistory((0..<runs).map { index in
            var context = SampleRecords.context
            context.started = SampleRecords.start.addingTimeInterval(Double(index) * 86_400)
            let cases = (0..<tests).map { test in
                CaseResult(record: SampleRecords.record(String(format: "test%05d", test), accessory: "thermometer",
                                                        verdict: fails(index, test) ? .failed : .passed,
                                                        measurements: [Measurement(name: "connect", value: 0.01, unit: "s"),
                                                                       Measurement(name: "m\(test % 7)", value: 1, unit: "ms")]),
                           source: .record)
            }
            return RunResults(layout: ResultsLayout(URL(fileURLWithPath: "/tmp/nightly/run-\(index)")), context: context, cases: cases,
                              summary: Assembly(context: context, cases: cases).summary, source: .resultsJSON)
        })
    }

    static func count(_ needle: String, in html: String) -> Int { html.components(separatedBy: needle).count - 1 }

    /// A file of `size` bytes that takes no room on the disk (a hole): a reader that reads it whole reads zeros.
    static func sparseFile(_ url: URL, size: UInt64) throws {
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: size)
        try handle.close()
    }

    @Test func thePageShowsTheLatestHundredRunsAndSaysSo() {
        let html = HistoryHTML.render(Self.history(runs: 101, tests: 2))
        #expect(Self.count("<th class=\"run\"", in: html) == 100)
        #expect(!html.contains("<th class=\"run\" title=\"run #1:"), "the oldest run is the one left out")
        #expect(html.contains("<th class=\"run\" title=\"run #101:"))
        #expect(Self.count("<td class=\"cell", in: html) == 2 * 100)
        #expect(html.contains("This page shows the latest 100 of 101 runs; history.json holds them all (HistoryLimits)."), "\(html.prefix(2000))")
    }

    @Test func thePageShowsTheFirstThousandTestsFailingFirstAndSaysSo() {
        let html = HistoryHTML.render(Self.history(runs: 1, tests: 1001) { _, test in test == 1000 })
        let matrix = html.components(separatedBy: "<section id=\"matrix\">").last ?? ""
        let rows = matrix.components(separatedBy: "<tr><td class=\"name\">").dropFirst()
        #expect(Self.count("<td class=\"cell", in: html) == 1000)
        #expect(rows.first?.hasPrefix("PowerOffTests/<wbr/>test01000 [thermometer] <span class=\"tag failing\">") == true, "\(rows.first ?? "")")
        #expect(html.contains("This page shows 1000 of 1001 tests (flaky and failing first); history.json holds them all (HistoryLimits)."))
    }

    @Test func thePageIsTheSameSizeForFourTimesTheRunsAndTests() {
        var limits = HistoryLimits()
        limits.pageRuns = 4
        limits.pageTests = 6
        limits.pageMeasurements = 2
        limits.pageListItems = 2
        // Every other run fails every test, all on one commit: every test is flaky and failing.
        func page(_ runs: Int) -> String { HistoryHTML.render(Self.history(runs: runs, tests: 2 * runs) { run, _ in run % 2 == 1 }, limits: limits) }
        for html in [page(10), page(40)] {
            #expect(Self.count("<td class=\"cell", in: html) == 4 * 6)
            #expect(Self.count("<th class=\"run\"", in: html) == 4)
            #expect(Self.count("<ul class=\"flaky\">", in: html) == 1 && Self.count("</li>", in: html) == 6)
            #expect(Self.count("<table class=\"measurements\">", in: html) == 1 && Self.count("<td class=\"name\">m", in: html) == 2)
            #expect(Self.count("<circle class=\"point\"", in: html) == 4, "the trend line of connect: one point per shown run")
        }
        #expect(page(40).contains("passed in runs #1, #3, and 18 more and failed in runs #2, #4, and 18 more"))
        #expect(page(40).contains("This page shows the latest 4 of 40 runs, 6 of 80 tests (flaky and failing first) and 2 of 7 other measurements; "
                                  + "history.json holds them all (HistoryLimits)."))
        #expect(abs(page(40).utf8.count - page(10).utf8.count) < 600, "\(page(40).utf8.count) vs \(page(10).utf8.count)")
    }

    @Test func aResultsJSONPastTheLimitIsRefusedByItsSizeAndTheOtherRunsAreRead() throws {
        let scratch = try TemporaryDirectory.make("hil-history-limits")
        defer { TemporaryDirectory.remove(scratch) }
        let runs = try SampleHistory.write(into: scratch.appendingPathComponent("nightly", isDirectory: true))
        let huge = scratch.appendingPathComponent("huge", isDirectory: true)
        try FileManager.default.createDirectory(at: huge, withIntermediateDirectories: true)
        let size = UInt64(HistoryLimits.standard.inputFileBytes) + 1
        try Self.sparseFile(ResultsLayout(huge).resultsJSON, size: size)
        let loaded = HistoryInputs.load([runs[0], huge, runs[1]])
        #expect(loaded.runs.count == 2)
        #expect(loaded.warnings == ["skipping \(huge.path): \(ResultsLayout(huge).resultsJSON.path): 67108865 bytes, more than HistoryLimits.inputFileBytes = 67108864"])
    }

    @Test func aRecordPastTheLimitMakesItsRunUnreadable() throws {
        let scratch = try TemporaryDirectory.make("hil-history-limits")
        defer { TemporaryDirectory.remove(scratch) }
        let run = scratch.appendingPathComponent("run", isDirectory: true)
        try SampleRecords.record("fine").write(toResultsDirectory: run)
        let record = ResultsLayout(run).records.appendingPathComponent("zz-huge.json")
        try Self.sparseFile(record, size: UInt64(HistoryLimits.standard.inputFileBytes) + 1)
        let loaded = HistoryInputs.load([run])
        #expect(loaded.runs.isEmpty)
        #expect(loaded.warnings.contains("skipping \(run.path): \(record.path): 67108865 bytes, more than HistoryLimits.inputFileBytes = 67108864"),
                "\(loaded.warnings)")
    }

    @Test func aRunKeepsOnlyWhatTheHistoryUses() throws {
        let scratch = try TemporaryDirectory.make("hil-history-limits")
        defer { TemporaryDirectory.remove(scratch) }
        let run = scratch.appendingPathComponent("run", isDirectory: true)
        let measurements = [Measurement(name: "connect", value: 0.012, unit: "s", budget: 0.05, samples: [0.01, 0.012, 0.03])]
        let written = SampleRecords.record("kept", accessory: "thermometer", verdict: .failed, message: String(repeating: "m", count: 10_000),
                                           timeline: [TimelineEvent(offset: 0, lane: .power, label: "power off")], measurements: measurements)
        try written.write(toResultsDirectory: run)
        try SampleRecords.context.write(to: ResultsLayout(run))
        let full = try RunResults.load(run)
        let slim = try #require(HistoryInputs.load([run]).runs.first)
        let kept = try #require(slim.cases.first)
        #expect(kept.record.message == nil && kept.record.timeline.isEmpty && kept.record.properties.isEmpty && kept.record.capturePath == nil)
        #expect(kept.record.measurements.isEmpty && kept.verdict == .failed)
        #expect(HistoryTestKey(kept.record) == HistoryTestKey(written) && HistoryTestKey.displayName(kept.record) == HistoryTestKey.displayName(written))
        // The samples are summed up in the run's points: the history of the slim run is the full run's.
        #expect(slim.measurementPoints?.count == 1)
        #expect(RunHistory([slim]).measurements == RunHistory([full]).measurements)
        #expect(RunHistory([slim]).measurements.first?.points.first??.count == 3)
        #expect(RunHistory([slim]).tests == RunHistory([full]).tests)
    }
}
