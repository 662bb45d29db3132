import HILResults

/// How a run ended: its outcome, the summary when cases ran, the message when it could not run, and the
/// signal that cut it short, if one did.
package struct RunReport: Sendable {
    package var outcome: RunOutcome
    package var summary: RunSummary?
    package var message: String?
    package var results: ResultsLayout?
    package var interruption: RunInterruption?

    /// `hil run`'s exit status: 128 + the signal for an interrupted run (130 SIGINT, 143 SIGTERM), else the
    /// outcome's.
    package var exitStatus: Int32 {
        interruption?.exitStatus ?? summary?.exitStatus ?? outcome.rawValue
    }
}
