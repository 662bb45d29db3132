import HILResults

/// How a run ended: its outcome, the summary when cases ran, the message when it could not run, and the
/// signal that cut it short, if one did.
public struct RunReport: Sendable {
    public var outcome: RunOutcome
    public var summary: RunSummary?
    public var message: String?
    public var results: ResultsLayout?
    public var interruption: RunInterruption?

    /// `hil run`'s exit status: 128 + the signal for an interrupted run (130 SIGINT, 143 SIGTERM), else the
    /// outcome's.
    public var exitStatus: Int32 {
        interruption?.exitStatus ?? summary?.exitStatus ?? outcome.rawValue
    }
}
