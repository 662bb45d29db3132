// The seam through which the owner of a server intercepts the requests it receives.

extension ATTServer {
    /// What an `interceptor` makes the server do with one request or command
    /// (Vol 3 Part F §3.4) in place of handling it the usual way.
    public enum Interception: Hashable, Sendable {
        /// Handle it as usual, and have the response sent after this delay (in place
        /// of `responseDelay`).
        case delay(Duration)
        /// Neither handle nor answer it; the reply reports `Event.dropped`. An
        /// unanswered request runs out the client's 30 s transaction timer (§3.3.3).
        case drop
        /// Do not handle it: answer with this PDU at once, or with nothing when nil.
        case replace(ATTPDU?)
        /// Do not handle it: answer at once with these octets, whatever they are (a truncated, oversized or
        /// otherwise malformed response — what a misbehaving server sends).
        case replaceBytes([UInt8])
    }

    /// Decides, for each decoded request and command, how the server intercepts it;
    /// nil lets it through to be handled as usual.
    public typealias Interceptor = @Sendable (ATTPDU) -> Interception?
}
