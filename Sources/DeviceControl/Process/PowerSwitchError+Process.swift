import Support

extension PowerSwitchError {
    /// A switch's command (a `command` or `process` switch, labgrid's client) that could not be run: an empty
    /// command line is the rig's mistake, a missing program one to install, a start that failed or output
    /// that stayed open after the kill the device's failure or timeout.
    init(_ error: ProcessError) {
        let kind: Kind = switch error.kind {
        case .invalidCommand: .invalidInput
        case .notFound: .notFound
        case .cannotStart: .deviceFailure
        case .outputStayedOpen: .timeout
        }
        self.init(kind, error.message)
    }
}
