import Foundation

/// What Swift Testing's event stream says about a run, folded into test cases: for each case its start
/// and end, its issues (with source locations), and its skip or cancel reason. Fed one record at a time
/// while the run goes on (`apply(_:)` says which cases just finished), or all at once afterwards.
///
/// Event stream version 0 sends `testCaseStarted`/`testCaseEnded` only for the cases of parameterized
/// tests; a non-parameterized test is one case, from `testStarted` to `testEnded`.
public struct SwiftTestingRun: Sendable {
    /// A test case: its test's ID, and Swift Testing's case ID for a case of a parameterized test.
    public struct CaseKey: Hashable, Sendable, Comparable {
        public var testID: String
        public var caseID: String?

        public init(testID: String, caseID: String? = nil) {
            self.testID = testID
            self.caseID = caseID
        }

        public static func < (a: CaseKey, b: CaseKey) -> Bool { (a.testID, a.caseID ?? "") < (b.testID, b.caseID ?? "") }
    }

    /// An issue Swift Testing recorded.
    public struct Issue: Codable, Sendable, Hashable {
        /// "Expectation failed: (state → .connected) == .disconnected".
        public var message: String
        /// Comments and other detail lines ("awaited disconnect within 2 s, observed still connected").
        public var details: [String]
        /// Known issues (`withKnownIssue`) do not fail a test.
        public var isKnown: Bool
        /// `File.swift:42`.
        public var sourceLocation: String?
        /// The absolute path of the file, when known (for JUnit's `file` attribute).
        public var filePath: String?
        public var line: Int?
        public var time: Date

        /// The message and its details on one line.
        public var summary: String { ([message] + details.filter { !message.contains($0) }).joined(separator: " — ") }
    }

    /// One test case as the event stream tells it.
    public struct Case: Sendable {
        public var key: CaseKey
        /// The rendered arguments of a parameterized case (`"thermometer", 1`).
        public var arguments: String?
        public var started: Date?
        public var ended: Date?
        public var issues: [Issue] = []
        /// A skip before it ran (`.disabled`, `.enabled(if:)`).
        public var skipReason: String?
        /// `Test.cancel(_:)` or `Test.Case.cancel(_:)` while it ran.
        public var cancelReason: String?
        /// Values attached with `Attachment.record`: the file written (`--attachments-path`), else the name.
        public var attachments: [String] = []
        /// Issues recorded against a suite (a suite trait that failed) or against no test at all.
        public var isSuiteLevel = false

        public var hasEnded: Bool { ended != nil }
        /// Issues that fail the case (not known issues).
        public var failures: [Issue] { issues.filter { !$0.isKnown } }
        public var duration: Double? {
            guard let started, let ended else { return nil }
            return max(0, ended.timeIntervalSince(started))
        }
    }

    /// Tests discovered at the start of the run (`test` records), by ID.
    public private(set) var tests: [String: EventStreamRecord.TestDescription] = [:]
    /// Test IDs in discovery order.
    public private(set) var testOrder: [String] = []
    public private(set) var cases: [CaseKey: Case] = [:]
    /// Case keys in the order they started.
    public private(set) var caseOrder: [CaseKey] = []
    public private(set) var runStarted: Date?
    public private(set) var runEnded: Date?
    /// Tests that started (a parameterized test starts before its cases).
    public private(set) var startedTests: [String: Date] = [:]
    public private(set) var endedTests: Set<String> = []
    /// The time of the latest event: where a run that was cut off stopped.
    public private(set) var lastEventTime: Date?

    public init() {}

    /// How many test cases the run will have: one per non-parameterized function, one per planned case
    /// of a parameterized one.
    public var plannedCaseCount: Int {
        tests.values.filter { !$0.isSuite }.reduce(0) { $0 + (($1.isParameterized ?? false) ? max(1, $1.testCases?.count ?? 1) : 1) }
    }

    /// Test cases that have ended — not suites (a suite skipped as a whole, a suite-level issue): the
    /// counter's numerator, which ends at `plannedCaseCount` and at the summary's total.
    public var finishedCaseCount: Int {
        orderedCases.filter { $0.hasEnded && !$0.isSuiteLevel && !isSuite($0.key.testID) }.count
    }

    /// Cases in start order.
    public var orderedCases: [Case] { caseOrder.compactMap { cases[$0] } }

    /// The description of a test, when it was discovered.
    public func test(_ id: String) -> EventStreamRecord.TestDescription? { tests[id] }

    /// Whether `id` is a suite's test ID (discovered as one, or without a source location).
    public func isSuite(_ id: String) -> Bool {
        if let test = tests[id] { return test.isSuite }
        return TestIDParts(id).sourceLocation == nil
    }

    func isParameterized(_ id: String) -> Bool { tests[id]?.isParameterized ?? false }

    /// Folds one record in; returns the keys of the cases that this record finished.
    @discardableResult
    public mutating func apply(_ record: EventStreamRecord) -> [CaseKey] {
        switch record {
        case .other: return []
        case .test(let test):
            if tests[test.id] == nil { testOrder.append(test.id) }
            tests[test.id] = test
            return []
        case .event(let event):
            return apply(event)
        }
    }

    private mutating func apply(_ event: EventStreamRecord.Event) -> [CaseKey] {
        let time = event.instant.date
        lastEventTime = max(lastEventTime ?? time, time)
        switch event.kind {
        case "runStarted":
            runStarted = time
        case "runEnded":
            runEnded = time
            // Suite-level issues end with the run at the latest.
            return finishOpenCases(where: { $0.isSuiteLevel }, at: time)
        case "testStarted":
            guard let id = event.testID else { break }
            startedTests[id] = time
            if !isSuite(id) && !isParameterized(id) { start(CaseKey(testID: id), arguments: nil, at: time) }
        case "testCaseStarted":
            guard let id = event.testID else { break }
            start(CaseKey(testID: id, caseID: event.testCase?.id), arguments: event.testCase?.displayName, at: time)
        case "issueRecorded":
            let issue = Self.issue(from: event)
            let key = issueKey(event)
            if cases[key] == nil {
                start(key, arguments: event.testCase?.displayName, at: time)
                let suiteLevel = event.testID.map { isSuite($0) } ?? true
                cases[key]?.isSuiteLevel = suiteLevel
            }
            cases[key]?.issues.append(issue)
        case "valueAttached":
            guard let id = event.testID else { break }
            let key = CaseKey(testID: id, caseID: event.testCase?.id)
            if let name = event.attachment?.path ?? event.attachment?.preferredName { cases[key]?.attachments.append(name) }
        case "testSkipped":
            guard let id = event.testID else { break }
            let key = CaseKey(testID: id, caseID: event.testCase?.id)
            start(key, arguments: event.testCase?.displayName, at: time)
            cases[key]?.skipReason = Self.reason(event, prefix: "skipped")
            cases[key]?.ended = time
            endedTests.insert(id)
            return [key]
        case "testCaseCancelled", "testCancelled":
            guard let id = event.testID else { break }
            let key = CaseKey(testID: id, caseID: event.testCase?.id)
            if cases[key] == nil, event.kind == "testCaseCancelled" || !isParameterized(id) {
                start(key, arguments: event.testCase?.displayName, at: time)
            }
            if cases[key] != nil, cases[key]?.cancelReason == nil { cases[key]?.cancelReason = Self.reason(event, prefix: "cancelled") }
        case "testCaseEnded":
            guard let id = event.testID, let caseID = event.testCase?.id else { break }
            let key = CaseKey(testID: id, caseID: caseID)
            if cases[key] == nil { start(key, arguments: event.testCase?.displayName, at: time) }
            guard cases[key]?.ended == nil else { break }
            cases[key]?.ended = time
            return [key]
        case "testEnded":
            guard let id = event.testID else { break }
            endedTests.insert(id)
            if isSuite(id) {
                return finishOpenCases(where: { $0.isSuiteLevel && $0.key.testID == id }, at: time)
            }
            if !isParameterized(id) {
                let key = CaseKey(testID: id)
                if cases[key] == nil { start(key, arguments: nil, at: startedTests[id] ?? time) }
                guard cases[key]?.ended == nil else { break }
                cases[key]?.ended = time
                return [key]
            }
            // A parameterized test: close cases whose end never came; a test cancelled before any case
            // ran still gets one (skipped) case.
            var finished = finishOpenCases(where: { $0.key.testID == id }, at: time)
            if !caseOrder.contains(where: { $0.testID == id }) {
                let key = CaseKey(testID: id)
                start(key, arguments: nil, at: startedTests[id] ?? time)
                cases[key]?.ended = time
                if let text = event.text(symbol: "skip") { cases[key]?.cancelReason = text }
                finished.append(key)
            }
            return finished
        default:
            break
        }
        return []
    }

    private mutating func start(_ key: CaseKey, arguments: String?, at time: Date) {
        guard cases[key] == nil else { return }
        cases[key] = Case(key: key, arguments: arguments, started: time)
        caseOrder.append(key)
    }

    private mutating func finishOpenCases(where predicate: (Case) -> Bool, at time: Date) -> [CaseKey] {
        var finished: [CaseKey] = []
        for key in caseOrder where cases[key].map({ !$0.hasEnded && predicate($0) }) ?? false {
            cases[key]?.ended = time
            finished.append(key)
        }
        return finished
    }

    /// The case an issue belongs to: its test case, its (non-parameterized) test, or a suite-level case.
    private func issueKey(_ event: EventStreamRecord.Event) -> CaseKey {
        guard let id = event.testID else { return CaseKey(testID: "(run)") }
        if let caseID = event.testCase?.id { return CaseKey(testID: id, caseID: caseID) }
        return CaseKey(testID: id)
    }

    static func issue(from event: EventStreamRecord.Event) -> Issue {
        let primary = event.messages.first { $0.symbol != "details" }?.text
            ?? event.issue?.error.map { "Caught error: \($0.description)" }
            ?? "an issue was recorded"
        var details = event.messages.filter { $0.symbol == "details" }.map(\.text)
        for comment in event.comments ?? [] where !details.contains(comment) && !primary.contains(comment) { details.append(comment) }
        let location = event.issue?.sourceLocation ?? event.sourceLocation
        return Issue(message: primary, details: details, isKnown: event.issue?.isKnown ?? false,
                     sourceLocation: location?.description, filePath: location?.filePath ?? location?.fileID,
                     line: location?.line, time: event.instant.date)
    }

    static func reason(_ event: EventStreamRecord.Event, prefix: String) -> String {
        if let comment = event.comments?.first(where: { !$0.isEmpty }) { return comment }
        if let text = event.text(symbol: "skip") { return text }
        return prefix
    }
}

extension SwiftTestingRun {
    /// Reads a whole event stream file. Lines that cannot be used come back as errors naming the file and
    /// line; an unterminated last line (a run cut off mid-write) is reported apart, as `incompleteLine`.
    public static func load(_ url: URL) -> (run: SwiftTestingRun, errors: [ResultsError], incompleteLine: Int?) {
        var run = SwiftTestingRun()
        var errors: [ResultsError] = []
        guard FileManager.default.fileExists(atPath: url.path) else {
            return (run, [ResultsError(url.path, "does not exist")], nil)
        }
        let tail = FileTail(path: url.path, limit: Int.max)
        for line in tail.readLines() {
            do { run.apply(try EventStreamRecord.decode(line: line.bytes)) } catch {
                errors.append(ResultsError(url.path, line: line.number, error.message))
            }
        }
        var incomplete: Int?
        if let last = tail.incompleteLine {
            // A complete record may lack only its newline; use it if it decodes.
            if let record = try? EventStreamRecord.decode(line: last.bytes) { run.apply(record) } else { incomplete = last.number }
        }
        return (run, errors, incomplete)
    }
}
