/// One test across the runs of a `RunHistory`: a cell per run, where its latest streak of failures began,
/// and the commits whose runs disagree about it.
public struct TestHistory: Sendable, Hashable {
    /// What one test did in one run: its cases (accessories are other tests; repetitions are cases of this
    /// one) counted by verdict.
    public struct Cell: Sendable, Hashable {
        public var passed = 0
        public var failed = 0
        public var infrastructureErrors = 0
        public var skipped = 0

        public init(passed: Int = 0, failed: Int = 0, infrastructureErrors: Int = 0, skipped: Int = 0) {
            self.passed = passed
            self.failed = failed
            self.infrastructureErrors = infrastructureErrors
            self.skipped = skipped
        }

        mutating func count(_ verdict: TestRecord.Verdict) {
            switch verdict {
            case .passed: passed += 1
            case .failed: failed += 1
            case .infrastructureError: infrastructureErrors += 1
            case .skipped: skipped += 1
            }
        }

        /// passed / (passed + failed); nil when no case passed or failed (all skipped or infrastructure errors).
        public var passRate: Double? {
            passed + failed == 0 ? nil : Double(passed) / Double(passed + failed)
        }

        /// The test's verdict in the run: failed if any case failed, else passed if any passed, else an
        /// infrastructure error if any, else skipped.
        public var verdict: TestRecord.Verdict {
            if failed > 0 { return .failed }
            if passed > 0 { return .passed }
            return infrastructureErrors > 0 ? .infrastructureError : .skipped
        }
    }

    /// A commit whose runs disagree: the test passed in some of them (or in some repetitions) and failed in others.
    public struct Flip: Sendable, Hashable {
        public var commit: String
        /// Indices of the runs of this commit where a case of the test passed.
        public var passedRuns: [Int]
        /// Indices of the runs of this commit where a case of the test failed.
        public var failedRuns: [Int]
    }

    public var key: HistoryTestKey
    /// `CaseResult.displayName` without the repetition, from the latest run the test appears in.
    public var displayName: String
    /// One per run of the history; nil where the test did not run.
    public var cells: [Cell?]
    /// Index of the run where its latest streak of failures began, when its latest run that passed or
    /// failed failed (runs where it was skipped, an infrastructure error or absent neither break nor extend
    /// the streak); nil when it last passed or never passed or failed.
    public var firstFailingRun: Int?
    /// The commits whose runs disagree, in the order of their first run; empty when the test is not flaky.
    /// Runs without a commit (no `.run.json`) are not compared.
    public var flips: [Flip]

    public var isFlaky: Bool { !flips.isEmpty }

    /// A history per test seen in any run, ordered by key.
    static func all(casesPerRun: [[CaseResult]], runs: [RunHistory.Run]) -> [TestHistory] {
        var cells: [HistoryTestKey: [Cell?]] = [:]
        var names: [HistoryTestKey: String] = [:]
        for (index, cases) in casesPerRun.enumerated() {
            for result in cases {
                let key = HistoryTestKey(result.record)
                var row = cells[key] ?? Array(repeating: nil, count: casesPerRun.count)
                var cell = row[index] ?? Cell()
                cell.count(result.verdict)
                row[index] = cell
                cells[key] = row
                names[key] = HistoryTestKey.displayName(result.record)
            }
        }
        return cells.map { key, row in
            TestHistory(key: key, displayName: names[key] ?? key.id, cells: row, firstFailingRun: firstFailingRun(row),
                        flips: flips(row, commits: runs.map(\.commit)))
        }
        .sorted { $0.key.id < $1.key.id }
    }

    static func firstFailingRun(_ cells: [Cell?]) -> Int? {
        var first: Int?
        for index in cells.indices.reversed() {
            guard let verdict = cells[index]?.verdict, verdict == .passed || verdict == .failed else { continue }
            if verdict == .passed { break }
            first = index
        }
        return first
    }

    static func flips(_ cells: [Cell?], commits: [String?]) -> [Flip] {
        var order: [String] = []
        var byCommit: [String: Flip] = [:]
        for (index, cell) in cells.enumerated() {
            guard let cell, index < commits.count, let commit = commits[index] else { continue }
            if byCommit[commit] == nil { order.append(commit) }
            var flip = byCommit[commit] ?? Flip(commit: commit, passedRuns: [], failedRuns: [])
            if cell.passed > 0 { flip.passedRuns.append(index) }
            if cell.failed > 0 { flip.failedRuns.append(index) }
            byCommit[commit] = flip
        }
        return order.compactMap { byCommit[$0] }.filter { !$0.passedRuns.isEmpty && !$0.failedRuns.isEmpty }
    }
}
