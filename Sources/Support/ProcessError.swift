/// Why a child process could not be run (`ChildProcess.spawn`, `ChildProcess.run`): what was asked, and the
/// system's reason. A caller with errors of its own (a power switch's `PowerSwitchError`, the runner's
/// start-up failure) says what the process was for.
package typealias ProcessError = KindedError<ProcessErrorKind>

/// Why a child process could not be run: `ProcessError.Kind`.
package enum ProcessErrorKind: Sendable, Hashable {
    /// The command line was empty.
    case invalidCommand
    /// The program was not found, or is not executable (ENOENT, EACCES).
    case notFound
    /// It could not be started for another reason (pipes, posix_spawn).
    case cannotStart
    /// It was killed at its deadline and its output stayed open (a grandchild holds it).
    case outputStayedOpen
}
