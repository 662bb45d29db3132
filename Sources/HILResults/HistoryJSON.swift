import Foundation

/// history.json, version 1: the `RunHistory` of `hil report --history`. Keys are sorted, dates are ISO 8601
/// UTC with milliseconds, run indices are 0-based positions in `runs`, and every key below is always
/// present (`null` when there is no value):
///
/// ```
/// {"version": 1,
///  "runs": [{"index": 0, "dir": "/abs/nightly/2026-11-30", "started": "2026-11-30T02:00:00.000Z",
///            "commit": "0123…" | null, "rig": "lab-bench-1" | null, "host": "bench-host",
///            "source": "results.json" | "records",
///            "counts": {"total": 12, "passed": 11, "failed": 1, "infrastructureErrors": 0, "skipped": 0},
///            "outcome": "passed" | "productFailure" | "infrastructureError" | "usageError", "exitStatus": 1}],
///  "tests": [{"id": "HILTests.PowerOffTests/powerOff(accessory:) [thermometer]",
///             "testID": "HILTests.PowerOffTests/powerOff(accessory:)", "accessory": "thermometer" | null,
///             "arguments": [], "displayName": "PowerOffTests/powerOff [thermometer]",
///             "runs": [{"verdict": "passed" | "failed" | "infrastructureError" | "skipped",
///                       "passRate": 0.5 | null, "passed": 1, "failed": 1, "infrastructureErrors": 0, "skipped": 0}
///                      | null],                       one per run; null where the test did not run
///             "firstFailing": {"run": 2, "dir": "…", "commit": "…" | null, "started": "…"} | null,
///             "flaky": true, "flips": [{"commit": "…", "passedRuns": [0], "failedRuns": [1]}]}],
///  "measurements": [{"name": "connect", "unit": "ms",
///                    "runs": [{"p95": 41.5, "count": 200, "from": "samples" | "values"} | null]}]}
/// ```
///
/// A test's `passRate` is passed / (passed + failed) over its cases in that run (repetitions are cases;
/// infrastructure errors and skips are counted but not rated); `firstFailing` is the run where its latest
/// streak of failures began, while its latest run that passed or failed failed; `flaky` is true when, among
/// the runs of one commit, it both passed and failed (`flips` says where). Tests are ordered by `id`;
/// measurements with connect and discovery first, then by name and unit.
public enum HistoryJSON {
    public static let version = 1

    public static func render(_ history: RunHistory) throws(ResultsError) -> Data {
        do { return try TestRecord.makeEncoder().encode(Document(history)) } catch {
            throw ResultsError("history.json", "cannot encode the history: \(error)")
        }
    }

    struct Document: Encodable {
        var version = HistoryJSON.version
        var runs: [Run]
        var tests: [Test]
        var measurements: [Series]

        init(_ history: RunHistory) {
            runs = history.runs.map(Run.init)
            tests = history.tests.map { Test($0, runs: history.runs) }
            measurements = history.measurements.map(Series.init)
        }
    }

    struct Counts: Encodable {
        var total: Int
        var passed: Int
        var failed: Int
        var infrastructureErrors: Int
        var skipped: Int
    }

    struct Run: Encodable {
        var run: RunHistory.Run

        init(_ run: RunHistory.Run) { self.run = run }

        enum Keys: String, CodingKey { case index, dir, started, commit, rig, host, source, counts, outcome, exitStatus }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            let summary = run.summary
            try container.encode(run.index, forKey: .index)
            try container.encode(run.directory, forKey: .dir)
            try container.encode(run.started, forKey: .started)
            try container.encode(run.commit, forKey: .commit)
            try container.encode(run.rig, forKey: .rig)
            try container.encode(run.host, forKey: .host)
            try container.encode(run.source.rawValue, forKey: .source)
            try container.encode(Counts(total: summary.total, passed: summary.passed, failed: summary.failed,
                                        infrastructureErrors: summary.infrastructureErrors, skipped: summary.skipped), forKey: .counts)
            try container.encode(outcomeName(summary.outcome), forKey: .outcome)
            try container.encode(summary.exitStatus, forKey: .exitStatus)
        }
    }

    struct Cell: Encodable {
        var cell: TestHistory.Cell

        enum Keys: String, CodingKey { case verdict, passRate, passed, failed, infrastructureErrors, skipped }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(cell.verdict.rawValue, forKey: .verdict)
            try container.encode(cell.passRate, forKey: .passRate)
            try container.encode(cell.passed, forKey: .passed)
            try container.encode(cell.failed, forKey: .failed)
            try container.encode(cell.infrastructureErrors, forKey: .infrastructureErrors)
            try container.encode(cell.skipped, forKey: .skipped)
        }
    }

    struct FirstFailing: Encodable {
        var run: Int
        var dir: String
        var commit: String?
        var started: Date

        enum Keys: String, CodingKey { case run, dir, commit, started }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(run, forKey: .run)
            try container.encode(dir, forKey: .dir)
            try container.encode(commit, forKey: .commit)
            try container.encode(started, forKey: .started)
        }
    }

    struct Flip: Encodable {
        var commit: String
        var passedRuns: [Int]
        var failedRuns: [Int]
    }

    struct Test: Encodable {
        var test: TestHistory
        var firstFailing: FirstFailing?

        init(_ test: TestHistory, runs: [RunHistory.Run]) {
            self.test = test
            firstFailing = test.firstFailingRun.flatMap { index in
                runs.indices.contains(index) ? FirstFailing(run: index, dir: runs[index].directory, commit: runs[index].commit, started: runs[index].started) : nil
            }
        }

        enum Keys: String, CodingKey { case id, testID, accessory, arguments, displayName, runs, firstFailing, flaky, flips }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(test.key.id, forKey: .id)
            try container.encode(test.key.testID, forKey: .testID)
            try container.encode(test.key.accessory, forKey: .accessory)
            try container.encode(test.key.arguments, forKey: .arguments)
            try container.encode(test.displayName, forKey: .displayName)
            try container.encode(test.cells.map { $0.map(Cell.init) }, forKey: .runs)
            try container.encode(firstFailing, forKey: .firstFailing)
            try container.encode(test.isFlaky, forKey: .flaky)
            try container.encode(test.flips.map { Flip(commit: $0.commit, passedRuns: $0.passedRuns, failedRuns: $0.failedRuns) }, forKey: .flips)
        }
    }

    struct Point: Encodable {
        var p95: Double
        var count: Int
        var from: String

        init(_ point: MeasurementSeries.Point) {
            p95 = point.p95
            count = point.count
            from = point.fromSamples ? "samples" : "values"
        }
    }

    struct Series: Encodable {
        var name: String
        var unit: String
        var runs: [Point?]

        init(_ series: MeasurementSeries) {
            name = series.name
            unit = series.unit
            runs = series.points.map { $0.map(Point.init) }
        }
    }

    /// `RunOutcome` as a word: passed, productFailure, infrastructureError, usageError, interrupted.
    static func outcomeName(_ outcome: RunOutcome) -> String {
        switch outcome {
        case .passed: return "passed"
        case .productFailure: return "productFailure"
        case .infrastructureError: return "infrastructureError"
        case .usageError: return "usageError"
        case .interrupted: return "interrupted"
        }
    }
}
