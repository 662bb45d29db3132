import HILResults

/// How a run ended: its outcome (the exit status), the summary when cases ran, the message when it
/// could not run.
public struct RunReport: Sendable {
    public var outcome: RunOutcome
    public var summary: RunSummary?
    public var message: String?
    public var results: ResultsLayout?
}
