/// `hil`'s exit statuses, the same for every subcommand.
enum ExitStatus: Int32, Error {
    /// Everything asked for was done and passed.
    case success = 0
    /// The product failed: an accessory failed a transition, a lint found errors.
    case productFailure = 1
    /// The bench failed: a controller that does not answer, a socket that is absent, a switch that cannot be verified.
    case infrastructureError = 2
    /// The command line, a rig file or an input file is wrong.
    case usageError = 3
    /// Interrupted by SIGINT or SIGTERM (128 + SIGINT, as a shell reports it), after saying what it had
    /// (`hil run` tells SIGTERM apart: `terminated`).
    case interrupted = 130
    /// `hil run` stopped by SIGTERM (128 + SIGTERM), its results saying so.
    case terminated = 143
    /// `hil run` stopped by SIGHUP (128 + SIGHUP), its results saying so.
    case hungUp = 129
}
