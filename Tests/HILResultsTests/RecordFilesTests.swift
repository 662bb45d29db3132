import Foundation
@testable import HILResults
import Testing
import TestSupport

@Suite struct RecordFilesTests {
    @Test func writeNamesTheFileAfterTheCaseAndLoadsBack() throws {
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        var record = SampleRecords.record("powerOffWhileConnected", accessory: "thermometer")
        record.started = Date(timeIntervalSince1970: 1_795_964_849.808)
        let url = try record.write(toResultsDirectory: directory)
        #expect(url.deletingLastPathComponent().lastPathComponent == "records")
        #expect(url.lastPathComponent.hasPrefix("PowerOffTests.powerOffWhileConnected.thermometer-"))
        #expect(url.lastPathComponent.hasSuffix(".json"))
        var loaded = try TestRecord.load(url)
        #expect(abs(loaded.started.timeIntervalSince(record.started)) < 0.0005, "milliseconds survive the round trip")
        loaded.started = record.started
        #expect(loaded == record)
        #expect(ResultsLayout.captureRelativePath(for: record) == "captures/" + url.deletingPathExtension().lastPathComponent + ".btsnoop")
    }

    @Test func caseNamesAreSafeAndUnique() {
        let a = ResultsLayout.caseName(testID: "M.S/t(a:)/F.swift:1:1", accessory: "scale <b>/../x", arguments: ["1 s"])
        let b = ResultsLayout.caseName(testID: "M.S/t(a:)/F.swift:1:1", accessory: "scale <b>/../y", arguments: ["1 s"])
        #expect(a != b)
        #expect(!a.contains("/") && !a.contains(" ") && !a.contains("<"))
        #expect(ResultsLayout.caseName(testID: "M.S/t()/F.swift:1:1", accessory: nil, arguments: [], repetition: 2)
            != ResultsLayout.caseName(testID: "M.S/t()/F.swift:1:1", accessory: nil, arguments: [], repetition: 3))
        let long = ResultsLayout.caseName(testID: String(repeating: "x", count: 500), accessory: nil, arguments: [])
        #expect(long.count <= 130)
    }

    @Test(arguments: [
        (#""2026-11-29T14:02:11.250Z""#, 1_795_960_931.25),
        (#""2026-11-29T14:02:11Z""#, 1_795_960_931.0),
        ("1795960931.5", 1_795_960_931.5),
        ("817653731.5", 1_795_960_931.5),  // JSONEncoder's default: seconds since 2001
    ])
    func datesInEveryFormARecordWriterMightUse(json: String, expected: Double) throws {
        let text = #"{"testID":"T","name":"t","suite":"S","arguments":[],"started":\#(json),"duration":1,"verdict":"passed","timeline":[],"measurements":[],"properties":{}}"#
        let record = try TestRecord.makeDecoder().decode(TestRecord.self, from: Data(text.utf8))
        #expect(abs(record.started.timeIntervalSince1970 - expected) < 0.001)
    }

    @Test(arguments: [
        ("", "is empty"),
        ("{", "not a valid test record"),
        (#"{"testID":"T","name":"t","suite":"S","arguments":[],"started":"2026-11-29T14:02:11Z","duration":1,"timeline":[],"measurements":[],"properties":{}}"#, "verdict: missing"),
        (#"{"testID":"T","name":"t","suite":"S","arguments":[],"started":"2026-11-29T14:02:11Z","duration":1,"verdict":"maybe","timeline":[],"measurements":[],"properties":{}}"#, "verdict"),
        (#"{"testID":"T","name":"t","suite":"S","arguments":[],"started":"yesterday","duration":1,"verdict":"passed","timeline":[],"measurements":[],"properties":{}}"#, "started: expected an ISO 8601 date"),
        (#"{"testID":"T","name":"t","suite":"S","arguments":[],"started":"2026-11-29T14:02:11Z","duration":1,"verdict":"passed","timeline":[{"offset":0,"lane":"radio","label":"x","isFailure":false}],"measurements":[],"properties":{}}"#, "timeline[0].lane"),
    ])
    func corruptRecordsAreErrorsNamingTheFileAndTheField(content: String, expected: String) throws {
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let url = directory.appendingPathComponent("bad.json")
        try Data(content.utf8).write(to: url)
        #expect { try TestRecord.load(url) } throws: { error in
            guard let error = error as? ResultsError else { return false }
            return error.file == url.path && error.message.contains(expected)
        }
    }

    @Test func loadAllKeepsTheGoodRecordsAndListsTheBadOnes() throws {
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        for record in SampleRecords.mixed() { try record.write(toResultsDirectory: directory) }
        let layout = ResultsLayout(directory)
        try Data("{\"truncated\":".utf8).write(to: layout.records.appendingPathComponent("broken.json"))
        try Data("ignored".utf8).write(to: layout.records.appendingPathComponent("notes.txt"))
        let loaded = TestRecord.loadAll(in: layout.records)
        #expect(loaded.records.count == 4)
        #expect(loaded.records.map(\.started) == loaded.records.map(\.started).sorted())
        #expect(loaded.errors.map { URL(fileURLWithPath: $0.file).lastPathComponent } == ["broken.json"])
    }

    @Test func removePreviousRunTouchesOnlyItsOwnFiles() throws {
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let layout = ResultsLayout(directory)
        try layout.create()
        try SampleRecords.record("a").write(toResultsDirectory: directory)
        try Data().write(to: layout.captures.appendingPathComponent("a.btsnoop"))
        try Data().write(to: layout.events)
        try Data("keep".utf8).write(to: directory.appendingPathComponent("notes.md"))
        try layout.removePreviousRun()
        #expect(try FileManager.default.contentsOfDirectory(atPath: layout.records.path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: layout.captures.path).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: layout.events.path))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("notes.md").path))
    }
}

@Suite struct ResultsRendererTests {
    @Test func rerendersACompleteRunFromItsEventsAndRecords() throws {
        let directory = try Fixtures.copy("runs/complete")
        defer { TemporaryDirectory.remove(directory.deletingLastPathComponent()) }
        let rendering = try ResultsRenderer.rerender(directory)
        #expect(rendering.errors.isEmpty)
        #expect(rendering.warnings.isEmpty)
        let summary = rendering.assembly.summary
        #expect((summary.total, summary.passed, summary.failed, summary.infrastructureErrors, summary.skipped) == (6, 3, 1, 1, 1))
        #expect(rendering.assembly.context.rigName == "fixture-rig")
        let layout = ResultsLayout(directory)
        for url in [layout.junit, layout.resultsJSON, layout.report] { #expect(FileManager.default.fileExists(atPath: url.path)) }
    }

    @Test func aCutOffRunIsRenderedWithAWarning() throws {
        let directory = try Fixtures.copy("runs/timed-out")
        defer { TemporaryDirectory.remove(directory.deletingLastPathComponent()) }
        let rendering = try ResultsRenderer.rerender(directory)
        #expect(rendering.errors.isEmpty)
        #expect(rendering.warnings.contains { $0.contains("the run did not finish") })
        #expect(rendering.assembly.cases.first { $0.record.testID.contains("Hang/hangs()") }?.verdict == .infrastructureError)
        #expect(rendering.assembly.summary.outcome == .infrastructureError)
    }

    @Test func aCorruptRecordIsNamedAndTheRestIsStillRendered() throws {
        let directory = try Fixtures.copy("runs/complete")
        defer { TemporaryDirectory.remove(directory.deletingLastPathComponent()) }
        let broken = ResultsLayout(directory).records.appendingPathComponent("zz-broken.json")
        try Data("{\"testID\": 3}".utf8).write(to: broken)
        let rendering = try ResultsRenderer.rerender(directory)
        #expect(rendering.errors.count == 1)
        #expect(rendering.errors.first?.file == broken.path)
        #expect(rendering.assembly.summary.outcome == .usageError, "bad input: exit 3")
        #expect(rendering.assembly.cases.count == 6)
        let junit = try String(contentsOf: ResultsLayout(directory).junit, encoding: .utf8)
        #expect(junit.contains("zz-broken.json"))
    }

    @Test func aTruncatedEventStreamIsAWarningNotALoss() throws {
        let directory = try Fixtures.copy("runs/complete")
        defer { TemporaryDirectory.remove(directory.deletingLastPathComponent()) }
        let events = ResultsLayout(directory).events
        let data = try Data(contentsOf: events)
        try data.prefix(data.count - 40).write(to: events)
        let rendering = try ResultsRenderer.rerender(directory)
        #expect(rendering.warnings.contains { $0.contains("ends in the middle of a line") })
        #expect(rendering.assembly.cases.count == 6, "every case that finished is still there")
    }

    @Test func missingOrEmptyDirectoriesAreClearErrors() throws {
        #expect { try ResultsRenderer.rerender(URL(fileURLWithPath: "/nonexistent/results")) } throws: {
            ($0 as? ResultsError)?.description == "/nonexistent/results: no such directory"
        }
        let empty = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(empty) }
        #expect { try ResultsRenderer.rerender(empty) } throws: {
            ($0 as? ResultsError)?.message.contains("not a hil results directory") == true
        }
    }
}
