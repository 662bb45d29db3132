/// The verdict of a whole run, which is `hil run`'s exit status.
///
/// Policy: any infrastructure error → 2 (it takes precedence: a broken bench makes every other verdict
/// doubtful); else any product failure → 1; else 0 — skipped cases do not fail a run. 3 is for a command
/// line, rig file or results input that is wrong, decided before or apart from the cases. A run a signal
/// cut short is `interrupted` whatever its cases say: it did not run what it was asked to, and its exit
/// status is 128 + the signal (`RunInterruption.exitStatus`: 130 for SIGINT, the raw value, 143 for SIGTERM).
public enum RunOutcome: Int32, Codable, Sendable, Hashable, Comparable, CustomStringConvertible {
    case passed = 0
    case productFailure = 1
    case infrastructureError = 2
    case usageError = 3
    case interrupted = 130

    public static func < (a: RunOutcome, b: RunOutcome) -> Bool { a.severity < b.severity }

    /// An interruption outranks everything; then usage errors; infrastructure outranks product failures.
    private var severity: Int {
        switch self {
        case .passed: return 0
        case .productFailure: return 1
        case .infrastructureError: return 2
        case .usageError: return 3
        case .interrupted: return 4
        }
    }

    /// The outcome of a set of case verdicts (no cases at all is a pass here; `hil run` treats a run
    /// that matched no test as a usage error before it gets here).
    public static func of(_ verdicts: some Sequence<TestRecord.Verdict>) -> RunOutcome {
        var outcome = RunOutcome.passed
        for verdict in verdicts {
            switch verdict {
            case .infrastructureError: return .infrastructureError
            case .failed: outcome = .productFailure
            case .passed, .skipped: break
            }
        }
        return outcome
    }

    public var description: String {
        switch self {
        case .passed: return "passed"
        case .productFailure: return "product failure"
        case .infrastructureError: return "infrastructure error"
        case .usageError: return "usage error"
        case .interrupted: return "interrupted"
        }
    }
}
