// One found handle and group end of a Find By Type Value Response.

extension ATTPDU {
    /// One entry of a Find By Type Value Response's Handles Information List
    /// (Core v5.4 Vol 3 Part F §3.4.3.4): the handle found and the end of its
    /// group (the found handle itself for an attribute that is not a group).
    public struct HandlesInformation: Hashable, Sendable {
        public var foundHandle: UInt16
        public var groupEndHandle: UInt16
    }
}
