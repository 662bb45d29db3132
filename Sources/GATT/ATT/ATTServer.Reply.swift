// The result of handling one PDU.

extension ATTServer {
    /// What to send back for one received PDU, and when.
    public struct Reply: Hashable, Sendable {
        /// The response PDU, or nil (commands, confirmations, notifications, dropped requests).
        public var response: [UInt8]?
        /// How long to wait before sending `response`: `ATTServer.responseDelay` or an
        /// `Interception.delay`; nil means at once. The server is synchronous, so the caller waits.
        public var delay: Duration?
        /// What happened, in order.
        public var events: [Event]

        public init(response: [UInt8]?, delay: Duration? = nil, events: [Event] = []) {
            self.response = response
            self.delay = delay
            self.events = events
        }
    }
}
