// Faults a simulated accessory can inject into its ATT server.

extension ATTServer {
    /// What to do with one request instead of (or besides) answering it normally,
    /// so a simulated accessory can "answer ATT slowly" or not at all.
    public enum Fault: Hashable, Sendable {
        /// Answer normally, but the caller should send the response after this delay.
        case delay(Duration)
        /// Do not answer (the client's 30 s transaction timer runs out).
        case drop
        /// Answer with an Error Response carrying this code (the request has no effect).
        case fail(ATTErrorCode)
    }
}
