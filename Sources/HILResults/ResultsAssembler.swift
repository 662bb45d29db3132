import Foundation

/// Joins the harness's records (`records/*.json`) with Swift Testing's event stream into one result per
/// test case × accessory × argument.
///
/// The join: a record names its test by Swift Testing's test ID. A non-parameterized test is one Swift
/// Testing case, so all its records belong to it (a test that loops over accessories writes one record
/// per accessory, and each becomes a case). A parameterized test's records are matched to its cases by
/// time (the record's span lies within the case's) and by arguments (the record's accessory and
/// arguments appear in the case's rendered arguments). Issues go to the record whose span contains
/// them. A Swift Testing case with no record becomes a result of its own, verdict from Swift Testing
/// alone; a record with no case (no events) stands alone.
public enum ResultsAssembler {
    /// Why the run stopped early, so that cases caught in the middle and tests never reached get a verdict.
    /// The run itself gets one too, whether or not a case was caught: a run cut short is never a pass. An
    /// interruption (a signal) is the assembly's `interruption`; anything else (a deadline, a test process
    /// that died, an event stream without its end) a problem with the reason, an infrastructure error.
    public struct Abort: Sendable, Hashable {
        /// "swift test did not finish within 30 min (killed PID 4242)".
        public var reason: String
        /// When the run was cut off: the end of the cases caught running.
        public var time: Date
        /// The signal that cut the run short, when one did.
        public var interruption: RunInterruption?
        public init(_ reason: String, at time: Date = Date()) {
            self.reason = reason
            self.time = time
        }

        /// A run a signal cut short: the reason is the interruption's message.
        public init(_ interruption: RunInterruption, at time: Date = Date()) {
            self.init(interruption.message, at: time)
            self.interruption = interruption
        }
    }

    /// Slack when matching times: the record's clock and Swift Testing's are the same wall clock, but
    /// the record's start is taken inside the case.
    static let slack: TimeInterval = 0.5

    public static func assemble(records: [TestRecord], run: SwiftTestingRun?, context: RunContext,
                                abort: Abort? = nil, problems: [Assembly.Problem] = [], isComplete: Bool = true) -> Assembly {
        var results: [CaseResult] = []
        var usedRecords = Set<Int>()
        let recordsByTest = Dictionary(grouping: records.indices, by: { records[$0].testID })

        if let run {
            let casesByTest = Dictionary(grouping: run.orderedCases, by: { $0.key.testID })
            var testIDs: [String] = []
            for key in run.caseOrder where !testIDs.contains(key.testID) { testIDs.append(key.testID) }
            for testID in testIDs {
                let cases = casesByTest[testID] ?? []
                let indices = recordsByTest[testID] ?? []
                let matches = match(records: indices.map { ($0, records[$0]) }, to: cases, parameterized: run.isParameterized(testID))
                for testCase in cases {
                    let mine = matches[testCase.key] ?? []
                    if mine.isEmpty {
                        if let result = swiftTestingOnly(testCase, run: run, abort: abort) { results.append(result) }
                        continue
                    }
                    // A case still running has no verdict from Swift Testing yet; its records stand.
                    let issuesByRecord = distribute(testCase.issues, over: mine.map(\.1))
                    for (position, (index, record)) in mine.enumerated() {
                        usedRecords.insert(index)
                        var merged = VerdictMerge.merge(record: record, issues: issuesByRecord[position], caseEnded: testCase.hasEnded,
                                                        cancelReason: testCase.cancelReason, abort: abort)
                        merged.attachments = testCase.attachments
                        merged.swiftTestingCase = testCase.key
                        results.append(merged)
                    }
                }
            }
            if let abort { results += notRun(run: run, reason: abort.reason, context: context) }
        }
        for (index, record) in records.enumerated() where !usedRecords.contains(index) {
            var result = VerdictMerge.merge(record: record, issues: [])
            result.source = .record
            results.append(result)
        }
        results.sort { ($0.record.started, $0.caseName) < ($1.record.started, $1.caseName) }
        let ended = run?.runEnded ?? abort?.time ?? run?.orderedCases.compactMap(\.ended).max()
        var problems = problems
        if let abort, abort.interruption == nil { problems.insert(.init(abort.reason, outcome: .infrastructureError), at: 0) }
        return Assembly(context: context, cases: results, problems: problems, isComplete: isComplete && abort == nil, ended: ended,
                        interruption: abort?.interruption)
    }

    /// Which records belong to which case of one test.
    static func match(records: [(Int, TestRecord)], to cases: [SwiftTestingRun.Case], parameterized: Bool)
        -> [SwiftTestingRun.CaseKey: [(Int, TestRecord)]] {
        guard !records.isEmpty, !cases.isEmpty else { return [:] }
        var result: [SwiftTestingRun.CaseKey: [(Int, TestRecord)]] = [:]
        let realCases = cases.filter { !$0.isSuiteLevel }
        guard let first = realCases.first else { return [:] }
        if !parameterized || realCases.count == 1 {
            result[first.key] = records
            return result
        }
        var taken = Set<SwiftTestingRun.CaseKey>()
        for (index, record) in records {
            var best: (score: Int, key: SwiftTestingRun.CaseKey)?
            for testCase in realCases {
                var score = 0
                if contains(testCase, record) { score += 2 }
                if argumentsMatch(testCase.arguments, record) { score += 3 }
                if !taken.contains(testCase.key) { score += 1 }
                if best == nil || score > (best?.score ?? 0) { best = (score, testCase.key) }
            }
            if let best {
                result[best.key, default: []].append((index, record))
                taken.insert(best.key)
            }
        }
        return result
    }

    /// The record's start lies within the case's span.
    static func contains(_ testCase: SwiftTestingRun.Case, _ record: TestRecord) -> Bool {
        guard let started = testCase.started else { return false }
        let end = testCase.ended ?? .distantFuture
        return record.started >= started.addingTimeInterval(-slack) && record.started <= end.addingTimeInterval(slack)
    }

    /// Every tag of the record (accessory, arguments) appears in the case's rendered arguments.
    static func argumentsMatch(_ rendered: String?, _ record: TestRecord) -> Bool {
        guard let rendered else { return false }
        let tags = (record.accessory.map { [$0] } ?? []) + record.arguments
        return !tags.isEmpty && tags.allSatisfy { rendered.contains($0) }
    }

    /// Each issue to the record whose span contains it, else to the last record that started before it,
    /// else to the first.
    static func distribute(_ issues: [SwiftTestingRun.Issue], over records: [TestRecord]) -> [[SwiftTestingRun.Issue]] {
        var buckets = Array(repeating: [SwiftTestingRun.Issue](), count: records.count)
        guard !records.isEmpty else { return buckets }
        for issue in issues {
            var chosen = records.indices.first { index in
                let record = records[index]
                return issue.time >= record.started.addingTimeInterval(-slack)
                    && issue.time <= record.started.addingTimeInterval(record.duration + slack)
            }
            if chosen == nil { chosen = records.indices.last { records[$0].started <= issue.time } }
            buckets[chosen ?? 0].append(issue)
        }
        return buckets
    }

    /// A case with no record: its verdict from Swift Testing alone. Nil for a case still running in a
    /// run that is still going.
    static func swiftTestingOnly(_ testCase: SwiftTestingRun.Case, run: SwiftTestingRun, abort: Abort?) -> CaseResult? {
        guard testCase.hasEnded || abort != nil else { return nil }
        let testID = testCase.key.testID
        let parts = TestIDParts(testID)
        let description = run.test(testID)
        let name = testCase.isSuiteLevel ? "(suite)" : (description?.displayName ?? parts.function)
        let suite = testCase.isSuiteLevel ? (parts.suitePath + [parts.function]).joined(separator: "/") : parts.suitePath.joined(separator: "/")
        let started = testCase.started ?? run.runStarted ?? Date()
        let ended = testCase.ended ?? abort?.time ?? started
        let arguments = testCase.arguments.map { [$0] } ?? []
        var record = TestRecord(testID: testID, name: name, suite: suite, arguments: arguments, started: started,
                                duration: max(0, ended.timeIntervalSince(started)), verdict: .passed)
        let failures = testCase.failures
        if let first = failures.first {
            record.verdict = .failed
            record.message = failures.map(\.summary).joined(separator: "\n")
            record.sourceLocation = first.sourceLocation
        } else if let reason = testCase.skipReason ?? testCase.cancelReason {
            record.verdict = .skipped
            record.message = reason
        } else if !testCase.hasEnded, let abort {
            record.verdict = .infrastructureError
            record.message = "did not finish: \(abort.reason)"
        }
        let caseName = ResultsLayout.caseName(testID: testID, accessory: nil, arguments: arguments)
        return CaseResult(record: record, caseName: caseName, source: .swiftTesting, issues: testCase.issues,
                          attachments: testCase.attachments, failureFile: failures.first?.filePath, failureLine: failures.first?.line,
                          swiftTestingCase: testCase.key)
    }

    /// Tests discovered but never reached (and planned cases of a parameterized test that never started)
    /// when the run was cut off: skipped, with the cause.
    static func notRun(run: SwiftTestingRun, reason: String, context: RunContext) -> [CaseResult] {
        var results: [CaseResult] = []
        let started = run.runStarted ?? context.started
        let seen = Set(run.caseOrder.map(\.testID))
        for testID in run.testOrder {
            guard let test = run.test(testID), !test.isSuite else { continue }
            let parts = TestIDParts(testID)
            let seenArguments = Set(run.orderedCases.filter { $0.key.testID == testID }.compactMap(\.arguments))
            let planned: [String?]
            if test.isParameterized ?? false, let cases = test.testCases, !cases.isEmpty {
                planned = cases.map(\.displayName).filter { !seenArguments.contains($0) }
                if seen.contains(testID) && planned.isEmpty { continue }
            } else {
                if seen.contains(testID) { continue }
                planned = [nil]
            }
            for arguments in planned {
                let args = arguments.map { [$0] } ?? []
                let record = TestRecord(testID: testID, name: test.displayName ?? parts.function, suite: parts.suitePath.joined(separator: "/"),
                                        arguments: args, started: started, duration: 0, verdict: .skipped, message: "not run: \(reason)")
                results.append(CaseResult(record: record, caseName: ResultsLayout.caseName(testID: testID, accessory: nil, arguments: args), source: .runner))
            }
        }
        return results
    }
}

/// How a record's verdict and Swift Testing's combine (the verdict policy for one case):
///
/// - infrastructureError in the record stays an infrastructure error, whatever Swift Testing recorded
///   (the bench broke; an expectation that failed after that says nothing about the accessory);
/// - failed stays failed;
/// - passed or skipped with an issue Swift Testing recorded becomes failed — the issue is the message and
///   its `file:line` the location;
/// - a case that was still running when the run was cut off is an infrastructure error.
public enum VerdictMerge {
    public static func merge(record: TestRecord, issues: [SwiftTestingRun.Issue], caseEnded: Bool = true,
                             cancelReason: String? = nil, abort: ResultsAssembler.Abort? = nil) -> CaseResult {
        var merged = record
        let failures = issues.filter { !$0.isKnown }
        var file: String?
        var line: Int?
        switch record.verdict {
        case .infrastructureError:
            if merged.message == nil { merged.message = failures.first?.summary ?? "infrastructure error" }
        case .failed:
            if merged.message == nil { merged.message = failures.map(\.summary).joined(separator: "\n") }
            if merged.sourceLocation == nil { merged.sourceLocation = failures.first?.sourceLocation }
            // The record's location names the failing expectation Swift Testing saw: take the issue's full path.
            if let issue = failures.first(where: { sameLocation(merged.sourceLocation, $0) }) { file = issue.filePath; line = issue.line }
        case .passed, .skipped:
            if let first = failures.first {
                merged.verdict = .failed
                merged.message = failures.map(\.summary).joined(separator: "\n")
                merged.sourceLocation = first.sourceLocation
                file = first.filePath
                line = first.line
            } else if record.verdict == .skipped, merged.message == nil {
                merged.message = cancelReason ?? "skipped"
            }
        }
        if !caseEnded, let abort, merged.verdict == .passed {
            merged.verdict = .infrastructureError
            merged.message = "did not finish: \(abort.reason)"
        }
        if file == nil, let location = merged.sourceLocation {
            let pieces = location.split(separator: ":")
            if pieces.count >= 2, let number = Int(pieces[1]) {
                file = String(pieces[0])
                line = number
            }
        }
        return CaseResult(record: merged, source: .recordAndSwiftTesting, issues: issues, failureFile: file, failureLine: line)
    }

    /// Whether a record's `File.swift:42` (or a path ending in it) is where `issue` was recorded.
    static func sameLocation(_ location: String?, _ issue: SwiftTestingRun.Issue) -> Bool {
        guard let location, let colon = location.lastIndex(of: ":"), let line = Int(location[location.index(after: colon)...]),
              line == issue.line else { return false }
        let name = (String(location[..<colon]) as NSString).lastPathComponent
        let issueName = ((issue.filePath ?? issue.sourceLocation ?? "") as NSString).lastPathComponent.split(separator: ":").first.map(String.init)
        return !name.isEmpty && name == issueName
    }
}
