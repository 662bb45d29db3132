// One group of a Read By Group Type Response.

extension ATTPDU {
    /// One entry of a Read By Group Type Response's Attribute Data List
    /// (Core v5.4 Vol 3 Part F §3.4.4.10): the grouping attribute's handle, the
    /// last handle of its group, and its value (for a service declaration, the service UUID).
    public struct GroupData: Hashable, Sendable {
        public var handle: UInt16
        public var endGroupHandle: UInt16
        public var value: [UInt8]
    }
}
