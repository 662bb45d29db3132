import Foundation
@testable import HILResults
import Testing
import TestSupport

/// history.json of `SampleHistory`'s five nightly runs and a corrupt one, read back with JSONSerialization
/// (not our decoder): the runs in time order, pass rates, first failing run and commit, flaky tests, p95s.
@Suite struct HistoryJSONTests {
    /// The archive, loaded and rendered; the parsed document and the loader's warnings.
    static func document() throws -> (json: [String: Any], warnings: [String], archive: URL) {
        let archive = try TemporaryDirectory.make("hil-history")
        try SampleHistory.write(into: archive)
        try SampleHistory.writeCorrupt(into: archive)
        let loaded = HistoryInputs.load([archive])
        let data = try HistoryJSON.render(RunHistory(loaded.runs))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (json, loaded.warnings, archive)
    }

    static func test(_ json: [String: Any], _ id: String) throws -> [String: Any] {
        let tests = try #require(json["tests"] as? [[String: Any]])
        return try #require(tests.first { $0["id"] as? String == id }, "no test \(id) in \(tests.compactMap { $0["id"] })")
    }

    /// The value of `key` in each per-run cell of a test (NSNull where the test did not run).
    static func cells(_ test: [String: Any], _ key: String) throws -> [Any?] {
        let runs = try #require(test["runs"] as? [Any])
        return runs.map { ($0 as? [String: Any])?[key] }
    }

    @Test func runsInTimeOrderWithTheirCommitsCountsAndOutcome() throws {
        let (json, warnings, archive) = try Self.document()
        defer { TemporaryDirectory.remove(archive) }
        #expect(json["version"] as? Int == 1)
        let runs = try #require(json["runs"] as? [[String: Any]])
        #expect(runs.count == 5, "the corrupt run is left out")
        #expect(runs.compactMap { ($0["dir"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } } == SampleHistory.names,
                "ordered by start, not by name")
        #expect(runs.compactMap { $0["commit"] as? String } == SampleHistory.commits)
        #expect(runs.compactMap { $0["index"] as? Int } == [0, 1, 2, 3, 4])
        #expect(runs.compactMap { $0["source"] as? String } == ["results.json", "results.json", "results.json", "records", "results.json"])
        #expect(runs.allSatisfy { $0["rig"] as? String == "lab-bench-1" && $0["host"] as? String == "bench-host" })
        let started = runs.compactMap { ($0["started"] as? String).flatMap { try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse($0) } }
        #expect(started == (0..<5).map { SampleHistory.started(run: $0) })
        // Counts from the verdict table: every letter is one case.
        for (index, run) in runs.enumerated() {
            let letters = SampleHistory.verdicts.flatMap { Array($0.runs[index]) }
            let counts = try #require(run["counts"] as? [String: Int])
            func count(_ letter: Character) -> Int { letters.filter { $0 == letter }.count }
            let expected: [String: Int] = ["total": letters.count, "passed": count("P"), "failed": count("F"),
                                           "infrastructureErrors": count("I"), "skipped": count("S")]
            #expect(counts == expected, "run \(index + 1)")
            let outcome = letters.contains("I") ? "infrastructureError" : (letters.contains("F") ? "productFailure" : "passed")
            #expect(run["outcome"] as? String == outcome, "run \(index + 1)")
            #expect(run["exitStatus"] as? Int == ["passed": 0, "productFailure": 1, "infrastructureError": 2][outcome], "run \(index + 1)")
        }
        let corrupt = warnings.filter { $0.contains("z-corrupt") }
        #expect(corrupt.count == 1 && corrupt.allSatisfy { !$0.contains("\n") && $0.contains("results.json") }, "\(warnings)")
    }

    @Test func aTestThatStartsFailingAtRunThreeNamesThatRunAndItsCommit() throws {
        let (json, _, archive) = try Self.document()
        defer { TemporaryDirectory.remove(archive) }
        let test = try Self.test(json, "HILTests.PowerOffTests/powerOffWhileConnected() [thermometer]")
        #expect(test["testID"] as? String == "HILTests.PowerOffTests/powerOffWhileConnected()", "the source location is not part of the key")
        #expect(test["accessory"] as? String == "thermometer")
        #expect(test["displayName"] as? String == "PowerOffTests/powerOffWhileConnected [thermometer]")
        #expect(try Self.cells(test, "passRate").map { $0 as? Double } == [1, 1, 0, 0, 0])
        #expect(try Self.cells(test, "verdict").map { $0 as? String } == ["passed", "passed", "failed", "failed", "failed"])
        let first = try #require(test["firstFailing"] as? [String: Any])
        #expect(first["run"] as? Int == 2)
        #expect(first["commit"] as? String == SampleHistory.commits[2])
        #expect((first["dir"] as? String)?.hasSuffix("/" + SampleHistory.names[2]) == true)
        #expect(test["flaky"] as? Bool == false)
        #expect((test["flips"] as? [Any])?.isEmpty == true)
    }

    @Test func theLatestStreakCountsAndAnInfrastructureErrorDoesNotStartIt() throws {
        let (json, _, archive) = try Self.document()
        defer { TemporaryDirectory.remove(archive) }
        // F F P I F: failing again since run #5 (index 4); run #4's infrastructure error is no verdict on the accessory.
        let test = try Self.test(json, "HILTests.PowerOffTests/advertiseAfterPowerOn() [scale]")
        let first = try #require(test["firstFailing"] as? [String: Any])
        #expect(first["run"] as? Int == 4)
        #expect(first["commit"] as? String == SampleHistory.commits[4])
        #expect(try Self.cells(test, "verdict").map { $0 as? String } == ["failed", "failed", "passed", "infrastructureError", "failed"])
        #expect(try Self.cells(test, "passRate")[3] is NSNull, "no case passed or failed in run #4")
        #expect(try Self.cells(test, "infrastructureErrors")[3] as? Int == 1)
        // A test that failed once and passed since is not failing.
        #expect(try Self.test(json, "HILTests.PowerOffTests/reconnect() [thermometer]")["firstFailing"] is NSNull)
        let skipped = try Self.test(json, "HILTests.PowerOffTests/pairing() [thermometer]")
        #expect(skipped["firstFailing"] is NSNull)
        #expect(try Self.cells(skipped, "passRate").allSatisfy { $0 is NSNull })
        #expect(try Self.cells(skipped, "skipped").map { $0 as? Int } == [1, 1, 1, 1, 1])
    }

    @Test func aVerdictThatFlipsOnOneCommitIsFlakyWithThatCommit() throws {
        let (json, _, archive) = try Self.document()
        defer { TemporaryDirectory.remove(archive) }
        let reconnect = try Self.test(json, "HILTests.PowerOffTests/reconnect() [thermometer]")
        #expect(reconnect["flaky"] as? Bool == true)
        let flips = try #require(reconnect["flips"] as? [[String: Any]])
        #expect(flips.count == 1)
        #expect(flips.first?["commit"] as? String == SampleHistory.commits[0])
        #expect(flips.first?["passedRuns"] as? [Int] == [0])
        #expect(flips.first?["failedRuns"] as? [Int] == [1])
        // Repetitions are cases of one test: run #4 passed 2 of 3, which is a flip on its commit too.
        let loop = try Self.test(json, "HILTests.PowerOffTests/loop() [scale]")
        #expect(loop["displayName"] as? String == "PowerOffTests/loop [scale]", "no repetition in the test's name")
        let rate = try #require(try Self.cells(loop, "passRate")[3] as? Double)
        #expect(abs(rate - 2.0 / 3.0) < 1e-12)
        #expect(try Self.cells(loop, "passed")[3] as? Int == 2)
        #expect(try Self.cells(loop, "failed")[3] as? Int == 1)
        #expect((loop["flips"] as? [[String: Any]])?.first?["commit"] as? String == SampleHistory.commits[3])
        // A test that never flips is not flaky, even when it fails on several commits (twice on one).
        #expect(try Self.test(json, "HILTests.PowerOffTests/advertiseAfterPowerOn() [scale]")["flaky"] as? Bool == false)
        let ids = try #require(json["tests"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        #expect(ids == ids.sorted() && ids.count == SampleHistory.verdicts.count)
    }

    /// p95 by the definition SampleStatistics documents — linear interpolation between closest ranks
    /// (R-7): position h = 0.95 × (n − 1) in the sorted samples, x[⌊h⌋] + (h − ⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋]) — worked by hand:
    /// - run #1 connect 10, 20, …, 100: h = 8.55 → 90 + 0.55 × 10 = 95.5
    /// - run #2 connect 11, 12, 13, 15, 40 (sorted): h = 3.8 → 15 + 0.8 × 25 = 35
    /// - run #3 connect, no samples, case values 100, 200, 300: h = 1.9 → 200 + 0.9 × 100 = 290
    /// - run #4 connect 20, 20 → 20; run #5 connect 30, 40: h = 0.95 → 30 + 0.95 × 10 = 39.5
    /// - run #1 discovery 1, 2, 3, 4: h = 2.85 → 3 + 0.85 × 1 = 3.85; run #2 discovery 5 → 5
    @Test func connectAndDiscoveryP95PerRunFromSamplesElseFromValues() throws {
        let (json, _, archive) = try Self.document()
        defer { TemporaryDirectory.remove(archive) }
        let measurements = try #require(json["measurements"] as? [[String: Any]])
        #expect(measurements.prefix(2).compactMap { $0["name"] as? String } == ["connect", "discovery"], "connect and discovery first")
        func series(_ name: String) throws -> [[String: Any]?] {
            let found = try #require(measurements.first { $0["name"] as? String == name })
            #expect(found["unit"] as? String == "ms")
            return try #require(found["runs"] as? [Any]).map { $0 as? [String: Any] }
        }
        func close(_ values: [Double?], _ expected: [Double?]) -> Bool {
            values.count == expected.count && zip(values, expected).allSatisfy { a, b in
                switch (a, b) {
                case let (a?, b?): abs(a - b) < 1e-9
                case (nil, nil): true
                default: false
                }
            }
        }
        let connect = try series("connect")
        #expect(close(connect.map { $0?["p95"] as? Double }, [95.5, 35, 290, 20, 39.5]), "\(connect)")
        #expect(connect.map { $0?["from"] as? String } == ["samples", "samples", "values", "samples", "samples"])
        #expect(connect.map { $0?["count"] as? Int } == [10, 5, 3, 2, 2])
        let discovery = try series("discovery")
        #expect(close(discovery.map { $0?["p95"] as? Double }, [3.85, 5, nil, nil, nil]), "\(discovery)")
        let raw = try #require(measurements.first { $0["name"] as? String == "discovery" }?["runs"] as? [Any])
        #expect(raw[2] is NSNull, "a run without the measurement is null")
        let linkLoss = try series("link loss reported")
        #expect(close(linkLoss.map { $0?["p95"] as? Double }, [2000, 2001, 2002, 2003, 2004]), "one value per run: its own p95")
    }

    /// Runs in memory, one case each, with the given verdicts and commits.
    static func runs(_ verdicts: [TestRecord.Verdict], commits: [String?]) -> [RunResults] {
        zip(verdicts, commits).enumerated().map { index, pair in
            let context = RunContext(host: "h", gitCommit: pair.1, started: SampleRecords.start.addingTimeInterval(Double(index)))
            let cases = [CaseResult(record: SampleRecords.record("only", verdict: pair.0), source: .record)]
            return RunResults(layout: ResultsLayout(URL(fileURLWithPath: "/tmp/run-\(index)")), context: context, cases: cases,
                              summary: Assembly(context: context, cases: cases).summary, source: .records)
        }
    }

    @Test func anInfrastructureErrorOrASkipInsideAStreakDoesNotBreakIt() throws {
        let history = RunHistory(Self.runs([.passed, .failed, .infrastructureError, .skipped, .failed], commits: ["a", "b", "c", "d", "e"]))
        let json = try #require(try JSONSerialization.jsonObject(with: HistoryJSON.render(history)) as? [String: Any])
        let first = try #require((json["tests"] as? [[String: Any]])?.first?["firstFailing"] as? [String: Any])
        #expect(first["run"] as? Int == 1)
        #expect(first["commit"] as? String == "b")
    }

    @Test func runsWithoutACommitAreNeverComparedForFlakiness() throws {
        let history = RunHistory(Self.runs([.passed, .failed, .passed], commits: [nil, nil, "a"]))
        let json = try #require(try JSONSerialization.jsonObject(with: HistoryJSON.render(history)) as? [String: Any])
        #expect((json["tests"] as? [[String: Any]])?.first?["flaky"] as? Bool == false)
    }

    @Test func everyKeyIsPresentEvenWhenItsValueIsNull() throws {
        let json = try #require(try JSONSerialization.jsonObject(with: HistoryJSON.render(RunHistory(Self.runs([.skipped], commits: [nil])))) as? [String: Any])
        let runObject = try #require((json["runs"] as? [[String: Any]])?.first)
        #expect(Set(runObject.keys) == ["index", "dir", "started", "commit", "rig", "host", "source", "counts", "outcome", "exitStatus"])
        #expect(runObject["commit"] is NSNull && runObject["rig"] is NSNull)
        let test = try #require((json["tests"] as? [[String: Any]])?.first)
        #expect(Set(test.keys) == ["id", "testID", "accessory", "arguments", "displayName", "runs", "firstFailing", "flaky", "flips"])
        #expect(test["accessory"] is NSNull && test["firstFailing"] is NSNull)
        #expect((json["measurements"] as? [Any])?.isEmpty == true)
    }
}
