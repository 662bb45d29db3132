import Foundation
@testable import HILResults
import Testing
import TestSupport

@Suite struct ResultsAssemblerTests {
    @Test func recordsAloneGiveOneCasePerAccessoryWithTheirVerdicts() {
        let assembly = ResultsAssembler.assemble(records: SampleRecords.mixed(), run: nil, context: SampleRecords.context)
        #expect(assembly.cases.map(\.verdict) == [.passed, .failed, .infrastructureError, .skipped])
        #expect(assembly.cases.map(\.displayName) == ["PowerOffTests/powerOffWhileConnected [thermometer]", "PowerOffTests/powerOffWhileConnected [scale]",
                                                      "PowerOffTests/advertiseAfterPowerOn [thermometer]", "PowerOffTests/reconnect [thermometer]"])
        let failed = assembly.cases[1]
        #expect(failed.failureFile == "PowerOffTests.swift")
        #expect(failed.failureLine == 42)
        #expect(assembly.summary.outcome == .infrastructureError)
        #expect(Set(assembly.cases.map(\.caseName)).count == 4, "case names are unique")
    }

    /// The terminal's counter (`[done/planned]`) ends at the summary's total: a suite skipped as a whole is
    /// no test case — its tests are (a real `hil run` event stream with skipped suites).
    @Test func theCounterEndsAtTheSummarysTotal() throws {
        let run = try Fixtures.run("skipped-suites")
        let assembly = ResultsAssembler.assemble(records: [], run: run, context: SampleRecords.context)
        let suiteNotes = assembly.cases.filter(\.isSuiteNote)
        #expect(suiteNotes.count >= 5, "\(suiteNotes.map(\.displayName))")
        #expect(run.plannedCaseCount == assembly.summary.total, "planned \(run.plannedCaseCount), summary \(assembly.summary.total)")
        #expect(run.finishedCaseCount == assembly.summary.total, "finished \(run.finishedCaseCount), summary \(assembly.summary.total)")
        #expect(assembly.summary.total == assembly.cases.count - suiteNotes.count)
    }

    @Test func aPassedRecordWithASwiftTestingIssueFailsWithTheIssuesLocation() throws {
        let run = try Fixtures.run("mixed-verdicts")
        let fails = try #require(run.cases[.init(testID: "FixTests.PowerOffTests/fails()/FixTests.swift:6:6")])
        let record = TestRecord(testID: fails.key.testID, name: "fails()", suite: "PowerOffTests", accessory: "thermometer",
                                started: try #require(fails.started), duration: 0.002, verdict: .passed)
        let assembly = ResultsAssembler.assemble(records: [record], run: run, context: SampleRecords.context)
        let merged = try #require(assembly.cases.first { $0.record.testID == fails.key.testID })
        #expect(merged.source == .recordAndSwiftTesting)
        #expect(merged.verdict == .failed)
        #expect(merged.record.sourceLocation == "FixTests.swift:8")
        #expect(merged.record.message?.contains("awaited disconnect within 2 s, observed still connected") == true)
        #expect(merged.failureLine == 8)
        #expect(merged.record.accessory == "thermometer", "the record's fields are kept")
    }

    /// A failed record that names its expectation by file name and line gets Swift Testing's full path for
    /// it, so junit.xml can give it relative to the package.
    @Test func aFailedRecordsBareLocationTakesTheIssuesPath() throws {
        let run = try Fixtures.run("mixed-verdicts")
        let fails = try #require(run.cases[.init(testID: "FixTests.PowerOffTests/fails()/FixTests.swift:6:6")])
        let issue = try #require(fails.failures.first)
        let record = TestRecord(testID: fails.key.testID, name: "fails()", suite: "PowerOffTests", started: try #require(fails.started),
                                duration: 0.002, verdict: .failed, message: "awaited disconnect", sourceLocation: "FixTests.swift:8")
        let merged = VerdictMerge.merge(record: record, issues: fails.issues)
        #expect(issue.filePath?.hasPrefix("/") == true, "the event stream gives the absolute path: \(issue)")
        #expect(merged.failureFile == issue.filePath && merged.failureLine == 8)
        let root = ((issue.filePath ?? "") as NSString).deletingLastPathComponent
        #expect(merged.failureLocation(packageRoot: root) == "FixTests.swift:8")
    }

    @Test func anInfrastructureRecordStaysAnInfrastructureErrorWhateverSwiftTestingRecorded() throws {
        let run = try Fixtures.run("mixed-verdicts")
        let fails = try #require(run.cases[.init(testID: "FixTests.PowerOffTests/fails()/FixTests.swift:6:6")])
        let record = TestRecord(testID: fails.key.testID, name: "fails()", suite: "PowerOffTests", started: try #require(fails.started),
                                duration: 0.002, verdict: .infrastructureError, message: "adapter usb:0 stopped answering")
        let merged = try #require(ResultsAssembler.assemble(records: [record], run: run, context: SampleRecords.context)
            .cases.first { $0.record.testID == fails.key.testID })
        #expect(merged.verdict == .infrastructureError)
        #expect(merged.record.message == "adapter usb:0 stopped answering")
        #expect(merged.issues.count == 1, "the issue is kept for the report")
    }

    @Test func parameterizedRecordsJoinTheirOwnCases() throws {
        let run = try Fixtures.run("mixed-verdicts")
        let testID = "FixTests.PowerOffTests/perAccessory(accessory:)/FixTests.swift:10:6"
        let cases = run.orderedCases.filter { $0.key.testID == testID }
        // Records in the opposite order of the cases: the join goes by arguments and time, not order.
        let records = try cases.reversed().map { testCase in
            TestRecord(testID: testID, name: "perAccessory(accessory:)", suite: "PowerOffTests",
                       accessory: testCase.arguments == "\"thermometer\"" ? "thermometer" : "scale <b>",
                       started: try #require(testCase.started), duration: 0.0001, verdict: .passed)
        }
        let assembly = ResultsAssembler.assemble(records: records, run: run, context: SampleRecords.context)
        let joined = assembly.cases.filter { $0.record.testID == testID }
        #expect(joined.count == 2, "one case per accessory, no Swift-Testing-only duplicates")
        #expect(joined.allSatisfy { $0.source == .recordAndSwiftTesting })
        #expect(joined.first { $0.record.accessory == "scale <b>" }?.verdict == .failed)
        #expect(joined.first { $0.record.accessory == "thermometer" }?.verdict == .passed)
    }

    @Test func aLoopOverAccessoriesInOneTestGivesOneCasePerRecord() throws {
        let run = try Fixtures.run("mixed-verdicts")
        let passes = try #require(run.cases[.init(testID: "FixTests.PowerOffTests/passes()/FixTests.swift:5:6")])
        let started = try #require(passes.started)
        let records = ["thermometer", "scale", "lock"].map {
            TestRecord(testID: passes.key.testID, name: "passes()", suite: "PowerOffTests", accessory: $0, started: started, duration: 0.0005, verdict: .passed)
        }
        let cases = ResultsAssembler.assemble(records: records, run: run, context: SampleRecords.context).cases.filter { $0.record.testID == passes.key.testID }
        #expect(cases.compactMap(\.record.accessory).sorted() == ["lock", "scale", "thermometer"])
    }

    @Test func aRunCutOffMarksTheRunningCaseAndSkipsTheRest() throws {
        let layout = ResultsLayout(try Fixtures.url("runs/timed-out"))
        let loaded = SwiftTestingRun.load(layout.events)
        #expect(loaded.run.runEnded == nil)
        let records = TestRecord.loadAll(in: layout.records)
        #expect(records.errors.isEmpty)
        let abort = ResultsAssembler.Abort("swift test did not finish within 8 s", at: try #require(loaded.run.lastEventTime).addingTimeInterval(8))
        let assembly = ResultsAssembler.assemble(records: records.records, run: loaded.run, context: SampleRecords.context, abort: abort)
        let hang = try #require(assembly.cases.first { $0.record.testID.contains("Hang/hangs()") })
        #expect(hang.verdict == .infrastructureError)
        #expect(hang.record.message == "did not finish: swift test did not finish within 8 s")
        #expect(abs(hang.record.duration - 8) < 0.1, "it ran until it was stopped")
        #expect(!assembly.isComplete)
        #expect(assembly.summary.outcome == .infrastructureError)
    }

    @Test func testsNeverReachedAreSkippedWithTheCause() throws {
        // The first 40 lines of a run: some tests discovered and started, most never reached.
        let text = try String(contentsOf: try Fixtures.url("events/cancel-matrix-attachment.jsonl"), encoding: .utf8)
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let url = directory.appendingPathComponent("cut.jsonl")
        try (text.split(separator: "\n").prefix(14).joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        let run = SwiftTestingRun.load(url).run
        let assembly = ResultsAssembler.assemble(records: [], run: run, context: SampleRecords.context, abort: .init("interrupted"))
        let runner = assembly.cases.filter { $0.source == .runner }
        #expect(!runner.isEmpty)
        #expect(runner.allSatisfy { $0.verdict == .skipped && $0.record.message == "not run: interrupted" })
        // Every planned case is accounted for exactly once.
        #expect(assembly.cases.count == run.plannedCaseCount)
    }

    @Test func unfinishedCasesAreLeftOutWhileTheRunGoesOn() throws {
        let text = try String(contentsOf: try Fixtures.url("events/mixed-verdicts.jsonl"), encoding: .utf8)
        var run = SwiftTestingRun()
        for line in text.split(separator: "\n").prefix(20) { run.apply(try EventStreamRecord.decode(line: Data(line.utf8))) }
        let assembly = ResultsAssembler.assemble(records: [], run: run, context: SampleRecords.context, isComplete: false)
        let ended = run.orderedCases.filter(\.hasEnded).count
        #expect(assembly.cases.count == ended)
        #expect(run.orderedCases.count > ended, "the prefix has running cases")
    }
}

@Suite struct VerdictPolicyTests {
    @Test(arguments: [
        ([TestRecord.Verdict](), RunOutcome.passed),
        ([.passed, .skipped], .passed),
        ([.passed, .failed, .skipped], .productFailure),
        ([.failed, .infrastructureError], .infrastructureError),
        ([.infrastructureError, .failed], .infrastructureError),
        ([.skipped, .skipped], .passed),
    ])
    func runOutcome(verdicts: [TestRecord.Verdict], expected: RunOutcome) {
        #expect(RunOutcome.of(verdicts) == expected)
        #expect(RunOutcome.of(verdicts).rawValue == expected.rawValue)
    }

    @Test func exitStatusValues() {
        #expect([RunOutcome.passed, .productFailure, .infrastructureError, .usageError].map(\.rawValue) == [0, 1, 2, 3])
    }

    @Test func problemsRaiseTheOutcomeButNeverLowerIt() {
        let failed = [SampleRecords.record("a", verdict: .failed)]
        var assembly = ResultsAssembler.assemble(records: failed, run: nil, context: SampleRecords.context)
        #expect(assembly.summary.outcome == .productFailure)
        assembly.problems = [.init("records/x.json: not a valid test record", outcome: .infrastructureError)]
        #expect(assembly.summary.outcome == .infrastructureError)
        #expect(assembly.summary.exitStatus == 2)
        assembly.problems = [.init("note", outcome: .passed)]
        #expect(assembly.summary.outcome == .productFailure)
    }

    @Test(arguments: [
        (TestRecord.Verdict.passed, true, TestRecord.Verdict.failed),
        (.passed, false, .passed),
        (.skipped, true, .failed),
        (.skipped, false, .skipped),
        (.failed, false, .failed),
        (.infrastructureError, true, .infrastructureError),
    ])
    func mergeRules(recorded: TestRecord.Verdict, withIssue: Bool, expected: TestRecord.Verdict) {
        let issue = SwiftTestingRun.Issue(message: "Expectation failed: x", details: [], isKnown: false, sourceLocation: "T.swift:3",
                                          filePath: "/src/T.swift", line: 3, time: SampleRecords.start)
        let known = SwiftTestingRun.Issue(message: "known", details: [], isKnown: true, sourceLocation: nil, filePath: nil, line: nil, time: SampleRecords.start)
        let merged = VerdictMerge.merge(record: SampleRecords.record("t", verdict: recorded), issues: withIssue ? [issue, known] : [known])
        #expect(merged.verdict == expected)
    }

    @Test func aCaseRunningWhenTheRunWasCutOffIsAnInfrastructureError() {
        let merged = VerdictMerge.merge(record: SampleRecords.record("t"), issues: [], caseEnded: false, abort: .init("killed"))
        #expect(merged.verdict == .infrastructureError)
        #expect(merged.record.message == "did not finish: killed")
    }
}
