// The Flags parameter of an Execute Write Request.

extension ATTPDU {
    /// The Flags of an Execute Write Request (Core v5.4 Vol 3 Part F §3.4.6.3).
    /// Other values are reserved; a request carrying one does not decode (the
    /// server answers Invalid PDU).
    public enum ExecuteWriteFlag: UInt8, Hashable, Sendable {
        /// 0x00: cancel all prepared writes.
        case cancel = 0x00
        /// 0x01: immediately write all pending prepared values.
        case write = 0x01
    }
}
