import Foundation

/// The history of many runs (`hil report --history`): the runs oldest first, each test's verdicts and pass
/// rate per run, where a failing test started failing, which tests are flaky, and the p95 of every
/// measurement per run. history.json (`HistoryJSON`) and history.html (`HistoryHTML`) both render this.
///
/// Pass and fail are the product's verdicts: a case that passed or failed. An infrastructure error (the
/// bench broke) and a skip say nothing about the accessory, so they are counted but neither pass nor fail:
/// they are left out of pass rates, do not start or end a streak of failures and never make a test flaky.
public struct RunHistory: Sendable {
    /// One run, as read from its results directory.
    public struct Run: Sendable, Hashable {
        /// Position in `runs`, 0-based.
        public var index: Int
        /// The results directory, absolute.
        public var directory: String
        public var started: Date
        public var commit: String?
        public var rig: String?
        public var host: String
        public var summary: RunSummary
        public var source: RunResults.Source
    }

    public var runs: [Run]
    /// Every test seen in any run, ordered by `HistoryTestKey.id`.
    public var tests: [TestHistory]
    /// A series per measurement name and unit, connect and discovery first.
    public var measurements: [MeasurementSeries]

    /// The history of `loaded`, which are sorted here by start time (then directory) whatever their order.
    public init(_ loaded: [RunResults]) {
        let ordered = loaded.sorted { ($0.context.started, $0.layout.directory.path) < ($1.context.started, $1.layout.directory.path) }
        runs = ordered.enumerated().map { index, run in
            Run(index: index, directory: run.layout.directory.path, started: run.context.started, commit: run.context.gitCommit,
                rig: run.context.rigName, host: run.context.host, summary: run.summary, source: run.source)
        }
        tests = TestHistory.all(casesPerRun: ordered.map(\.cases), runs: runs)
        measurements = MeasurementSeries.all(pointsPerRun: ordered.map { $0.measurementPoints ?? MeasurementSeries.points($0.cases) })
    }

    /// Tests whose verdict flipped between passed and failed within the runs of one commit.
    public var flakyTests: [TestHistory] { tests.filter(\.isFlaky) }

    /// Tests failing in their latest run that passed or failed, with the run where that streak began.
    public var failingTests: [TestHistory] { tests.filter { $0.firstFailingRun != nil } }
}
