import Foundation

/// One test case's result: the harness's record joined with what Swift Testing said about the case. The
/// record's verdict, message and source location are the merged ones (`VerdictMerge`); results.json
/// stores the record's fields and the extra fields below side by side in one object.
public struct CaseResult: Codable, Sendable, Hashable {
    /// Where a result came from.
    public enum Source: String, Codable, Sendable, Hashable {
        /// A record joined with its Swift Testing case.
        case recordAndSwiftTesting = "record+swift-testing"
        /// A record with no matching Swift Testing case (events missing).
        case record
        /// Swift Testing alone: a suite without the HILTesting traits, or a case that wrote no record.
        case swiftTesting = "swift-testing"
        /// Made by the runner: a case that never finished or never ran because the run was cut off.
        case runner
    }

    public var record: TestRecord
    /// The file-system-safe, unique name (`records/<caseName>.json`).
    public var caseName: String
    /// `Suite/test [accessory, argument]`, for people.
    public var displayName: String
    public var source: Source
    /// Issues Swift Testing recorded in this case, known issues included.
    public var issues: [SwiftTestingRun.Issue]
    /// Values attached with `Attachment.record`.
    public var attachments: [String]
    /// File and line of the failure, for JUnit's attributes.
    public var failureFile: String?
    public var failureLine: Int?
    /// The Swift Testing case it was joined with (not stored in results.json).
    public var swiftTestingCase: SwiftTestingRun.CaseKey?

    public init(record: TestRecord, caseName: String? = nil, displayName: String? = nil, source: Source,
                issues: [SwiftTestingRun.Issue] = [], attachments: [String] = [], failureFile: String? = nil, failureLine: Int? = nil,
                swiftTestingCase: SwiftTestingRun.CaseKey? = nil) {
        self.record = record
        self.caseName = caseName ?? ResultsLayout.caseName(record)
        self.displayName = displayName ?? CaseResult.displayName(record)
        self.source = source
        self.issues = issues
        self.attachments = attachments
        self.failureFile = failureFile
        self.failureLine = failureLine
        self.swiftTestingCase = swiftTestingCase
    }

    public var verdict: TestRecord.Verdict { record.verdict }

    /// Where the case failed, `Tests/Suite/File.swift:42` relative to `packageRoot` (the failing expectation,
    /// or the test's line that threw), never an absolute path; nil when unknown.
    public func failureLocation(packageRoot: String?) -> String? {
        JUnitTestcase.location(file: failureFile, line: failureLine, fallback: record.sourceLocation, packageRoot: packageRoot)
    }

    /// A result for a suite as a whole that neither failed nor errored — a skipped suite (whose tests have
    /// their own results), or a suite whose only issues were known ones. It is not a test case: junit.xml tells
    /// it in the suite's `<system-out>`, the summary does not count it, and the run prints it as a `suite` line.
    public var isSuiteNote: Bool {
        source == .swiftTesting && Self.isSuiteID(record.testID) && (verdict == .skipped || verdict == .passed)
    }

    /// A suite's test ID has no `File.swift:line:column` at its end.
    static func isSuiteID(_ testID: String) -> Bool {
        !testID.isEmpty && TestIDParts(testID).sourceLocation == nil
    }

    /// `Suite/Inner/test [accessory, argument, #2]`: the case's one name, everywhere it is shown (the terminal,
    /// the CI lines of `hil run`, junit.xml's testcase name, report.html).
    public static func displayName(_ record: TestRecord) -> String {
        let name = TestIDParts.trimParameters(record.name)
        var base = record.suite.isEmpty ? name : "\(record.suite)/\(name)"
        if base.isEmpty { base = TestIDParts(record.testID).displayPath }
        let tags = bracketTags(record)
        return tags.isEmpty ? base : "\(base) [\(tags.joined(separator: ", "))]"
    }

    static func bracketTags(_ record: TestRecord) -> [String] {
        var tags: [String] = []
        if let accessory = record.accessory { tags.append(accessory) }
        tags += record.arguments
        if let repetition = record.repetition { tags.append("#\(repetition)") }
        return tags
    }

    enum ExtraKeys: String, CodingKey {
        case caseName, displayName, source, issues, attachments, failureFile, failureLine
    }

    public init(from decoder: any Decoder) throws {
        record = try TestRecord(from: decoder)
        let container = try decoder.container(keyedBy: ExtraKeys.self)
        caseName = try container.decode(String.self, forKey: .caseName)
        displayName = try container.decode(String.self, forKey: .displayName)
        source = try container.decode(Source.self, forKey: .source)
        issues = try container.decodeIfPresent([SwiftTestingRun.Issue].self, forKey: .issues) ?? []
        attachments = try container.decodeIfPresent([String].self, forKey: .attachments) ?? []
        failureFile = try container.decodeIfPresent(String.self, forKey: .failureFile)
        failureLine = try container.decodeIfPresent(Int.self, forKey: .failureLine)
    }

    public func encode(to encoder: any Encoder) throws {
        try record.encode(to: encoder)
        var container = encoder.container(keyedBy: ExtraKeys.self)
        try container.encode(caseName, forKey: .caseName)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(source, forKey: .source)
        try container.encode(issues, forKey: .issues)
        try container.encode(attachments, forKey: .attachments)
        try container.encodeIfPresent(failureFile, forKey: .failureFile)
        try container.encodeIfPresent(failureLine, forKey: .failureLine)
    }
}

/// A run's results: the cases, the counts, the context, and anything wrong with the inputs.
public struct Assembly: Sendable {
    public var context: RunContext
    public var cases: [CaseResult]
    /// Problems apart from the cases — a corrupt record, an unreadable event stream line, a test process
    /// that exited with a failure the event stream does not explain — each with the outcome it forces.
    public var problems: [Problem]
    /// Whether the run finished; false while it is still going (incremental writes) or after it was cut off.
    public var isComplete: Bool
    /// When the last case ended (or the run ended), for the summary's duration.
    public var ended: Date?
    /// The signal that cut the run short, if one did: the run's outcome is then `.interrupted`.
    public var interruption: RunInterruption?

    public struct Problem: Codable, Sendable, Hashable {
        public var message: String
        public var outcome: RunOutcome
        public init(_ message: String, outcome: RunOutcome) {
            self.message = message
            self.outcome = outcome
        }
    }

    public init(context: RunContext, cases: [CaseResult], problems: [Problem] = [], isComplete: Bool = true, ended: Date? = nil,
                interruption: RunInterruption? = nil) {
        self.context = context
        self.cases = cases
        self.problems = problems
        self.isComplete = isComplete
        self.ended = ended
        self.interruption = interruption
    }

    /// The problems the run's files list — the interruption first (outcome `.interrupted`), then `problems`:
    /// junit.xml's run-level errors, report.html's list and the summary's.
    public var allProblems: [Problem] {
        (interruption.map { [Problem($0.message, outcome: .interrupted)] } ?? []) + problems
    }

    public var summary: RunSummary { RunSummary(self) }
}

/// The counts and the outcome of a run.
public struct RunSummary: Codable, Sendable, Hashable {
    public var total: Int
    public var passed: Int
    public var failed: Int
    public var infrastructureErrors: Int
    public var skipped: Int
    public var started: Date
    /// Seconds from the run's start to the end of its last case.
    public var duration: Double
    public var outcome: RunOutcome
    /// The outcome's status, or 128 + the signal for an interrupted run (130 SIGINT, 143 SIGTERM).
    public var exitStatus: Int32
    public var isComplete: Bool
    /// The interruption's message first, then the other problems'.
    public var problems: [String]
    /// The signal that cut the run short, if one did.
    public var interruption: RunInterruption?

    /// Counts test cases only: a suite note (`CaseResult.isSuiteNote`) is not one.
    public init(_ assembly: Assembly) {
        let verdicts = assembly.cases.filter { !$0.isSuiteNote }.map(\.verdict)
        total = verdicts.count
        passed = verdicts.filter { $0 == .passed }.count
        failed = verdicts.filter { $0 == .failed }.count
        infrastructureErrors = verdicts.filter { $0 == .infrastructureError }.count
        skipped = verdicts.filter { $0 == .skipped }.count
        started = assembly.context.started
        let lastEnd = assembly.cases.map { $0.record.started.addingTimeInterval($0.record.duration) }.max()
        let end = [assembly.ended, lastEnd].compactMap { $0 }.max() ?? started
        duration = max(0, end.timeIntervalSince(started))
        let problems = assembly.allProblems
        outcome = ([RunOutcome.of(verdicts)] + problems.map(\.outcome)).max() ?? .passed
        exitStatus = assembly.interruption?.exitStatus ?? outcome.rawValue
        isComplete = assembly.isComplete && assembly.interruption == nil
        self.problems = problems.map(\.message)
        interruption = assembly.interruption
    }

    /// "12 passed, 1 failed, 1 infrastructure error, 2 skipped".
    public var counts: String {
        var parts = ["\(passed) passed", "\(failed) failed"]
        parts.append("\(infrastructureErrors) infrastructure error\(infrastructureErrors == 1 ? "" : "s")")
        parts.append("\(skipped) skipped")
        return parts.joined(separator: ", ")
    }
}
