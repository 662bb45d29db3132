// A handle and a value, as several ATT PDUs list them.

extension ATTPDU {
    /// An attribute handle with its value: one entry of a Read By Type Response's
    /// Attribute Data List (Core v5.4 Vol 3 Part F §3.4.4.2) or of a Multiple Handle
    /// Value Notification's Handle Length Value Tuple List (§3.4.7.4).
    public struct HandleValue: Hashable, Sendable {
        public var handle: UInt16
        public var value: [UInt8]
    }
}
