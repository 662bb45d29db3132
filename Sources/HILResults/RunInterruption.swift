import Foundation

/// How a signal cut a run short: which signal, when, in which phase of the run, and what the runner did
/// about it. junit.xml carries it as an `<error type="interrupted">`, results.json as `summary.interruption`,
/// report.html at the top; the run's exit status is 128 + the signal.
public struct RunInterruption: Sendable, Hashable, Codable {
    /// Where the run was when the signal came.
    public enum Phase: Sendable, Hashable {
        /// Before the build: reading the plan, taking the bench.
        case starting
        /// `swift build` of the suites.
        case building
        /// The tests were started (built, or a test bundle) and no test case had started yet.
        case beforeFirstCase
        /// This test case (its display name) was running.
        case duringCase(String)
        /// No test case was running; this one was the last to end.
        case betweenCases(after: String)
        /// The tests had ended: the results were being assembled and written, the bench released.
        case writingResults

        /// The phase's name in results.json: starting, building, beforeFirstCase, duringCase, betweenCases,
        /// writingResults.
        public var name: String {
            switch self {
            case .starting: "starting"
            case .building: "building"
            case .beforeFirstCase: "beforeFirstCase"
            case .duringCase: "duringCase"
            case .betweenCases: "betweenCases"
            case .writingResults: "writingResults"
            }
        }

        /// The test case the phase names (running, or the last to end), if any.
        public var testCase: String? {
            switch self {
            case .duringCase(let name), .betweenCases(after: let name): name
            default: nil
            }
        }

        /// "while building the tests", "during PowerOffTests/powerOff [thermometer]", …
        public var description: String {
            switch self {
            case .starting: "before the build, while taking the bench"
            case .building: "while building the tests"
            case .beforeFirstCase: "after the build, before the first test case"
            case .duringCase(let name): "during \(name)"
            case .betweenCases(after: let name): "between test cases, after \(name)"
            case .writingResults: "while writing the results"
            }
        }

        /// Whether the tests were running (their process started, not yet ended).
        public var isTesting: Bool {
            switch self {
            case .beforeFirstCase, .duringCase, .betweenCases: true
            default: false
            }
        }

        init?(name: String, testCase: String?) {
            switch (name, testCase) {
            case ("starting", _): self = .starting
            case ("building", _): self = .building
            case ("beforeFirstCase", _): self = .beforeFirstCase
            case ("duringCase", let name?): self = .duringCase(name)
            case ("betweenCases", let name?): self = .betweenCases(after: name)
            case ("writingResults", _): self = .writingResults
            default: return nil
            }
        }
    }

    /// The signal's number (SIGINT 2, SIGTERM 15, SIGHUP 1).
    public var signal: Int32
    public var phase: Phase
    /// When the signal came.
    public var time: Date
    /// What the runner did: "stopped swift test (PID 4242)", "a second SIGINT ended hil run at once".
    public var action: String?

    public init(signal: Int32, phase: Phase, time: Date, action: String? = nil) {
        self.signal = signal
        self.phase = phase
        self.time = time
        self.action = action
    }

    /// 128 + the signal, as a shell reports a process the signal ended: 130 for SIGINT, 143 for SIGTERM.
    public var exitStatus: Int32 { 128 + signal }

    /// "SIGINT", "SIGTERM", "SIGHUP", else "signal N".
    public var signalName: String { Self.signalName(signal) }

    /// "interrupted by SIGTERM at 2026-11-29T14:02:11.250Z during PowerOffTests/powerOff [thermometer]; stopped
    /// swift test (PID 4242)".
    public var message: String {
        "interrupted by \(signalName) at \(ISO8601.string(time)) \(phase.description)" + (action.map { "; \($0)" } ?? "")
    }

    public static func signalName(_ signal: Int32) -> String {
        switch signal {
        case 1: "SIGHUP"
        case 2: "SIGINT"
        case 15: "SIGTERM"
        default: "signal \(signal)"
        }
    }

    /// The phase of a run whose tests were running at `time`, from what the event stream told: the case
    /// that had started and not ended by then, else the last case that had ended, else none yet. Suites and
    /// suite-level issues are not test cases.
    public static func testingPhase(_ run: SwiftTestingRun, at time: Date? = nil) -> Phase {
        let cases = run.orderedCases.filter { !$0.isSuiteLevel && !run.isSuite($0.key.testID) }
        func started(_ testCase: SwiftTestingRun.Case) -> Bool { time.map { (testCase.started ?? .distantFuture) <= $0 } ?? true }
        func ended(_ testCase: SwiftTestingRun.Case) -> Bool {
            guard let end = testCase.ended else { return false }
            return time.map { end <= $0 } ?? true
        }
        if let running = cases.last(where: { started($0) && !ended($0) }) { return .duringCase(name(running)) }
        if let last = cases.filter(ended).max(by: { ($0.ended ?? .distantPast) < ($1.ended ?? .distantPast) }) {
            return .betweenCases(after: name(last))
        }
        return .beforeFirstCase
    }

    /// `Suite/test [arguments]`, as the runner names a running case.
    static func name(_ testCase: SwiftTestingRun.Case) -> String {
        let path = TestIDParts(testCase.key.testID).displayPath
        return testCase.arguments.map { "\(path) [\($0)]" } ?? path
    }

    // results.json: {"signal": "SIGINT", "signalNumber": 2, "exitStatus": 130, "phase": "duringCase",
    // "testCase": "…", "time": "…", "action": "…", "message": "…"}.
    enum CodingKeys: String, CodingKey {
        case signal, signalNumber, exitStatus, phase, testCase, time, action, message
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(signalName, forKey: .signal)
        try container.encode(signal, forKey: .signalNumber)
        try container.encode(exitStatus, forKey: .exitStatus)
        try container.encode(phase.name, forKey: .phase)
        try container.encodeIfPresent(phase.testCase, forKey: .testCase)
        try container.encode(time, forKey: .time)
        try container.encodeIfPresent(action, forKey: .action)
        try container.encode(message, forKey: .message)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        signal = try container.decode(Int32.self, forKey: .signalNumber)
        let name = try container.decode(String.self, forKey: .phase)
        guard let phase = Phase(name: name, testCase: try container.decodeIfPresent(String.self, forKey: .testCase)) else {
            throw DecodingError.dataCorruptedError(forKey: .phase, in: container, debugDescription: "unknown phase \(name)")
        }
        self.phase = phase
        time = try container.decode(Date.self, forKey: .time)
        action = try container.decodeIfPresent(String.self, forKey: .action)
    }
}
