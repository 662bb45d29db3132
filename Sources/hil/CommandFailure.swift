/// A command's work on an opened controller that failed: the one line it prints and the exit status it earns
/// (`hil dfu`'s and `hil bench`'s own failures; any other error is the bench's).
struct CommandFailure: Error {
    var message: String
    var status: ExitStatus
}
