// What happened on the server while handling one PDU.

extension ATTServer {
    /// Something the owner of the connection may want to act on, reported by `reply(to:)`.
    public enum Event: Hashable, Sendable {
        /// The ATT_MTU is now `mtu` (after an Exchange MTU Request).
        case mtuExchanged(Int)
        /// The client wrote the CCCD of the characteristic whose value is at `valueHandle`.
        case subscriptionChanged(valueHandle: UInt16, configuration: GATTClientConfiguration)
        /// A value (not a CCCD) was written, by Write Request, Write Command or Execute Write.
        case valueWritten(handle: UInt16, value: [UInt8])
        /// The client confirmed the outstanding indication.
        case confirmationReceived
        /// The server's `interceptor` dropped this request or command (`Interception.drop`).
        case dropped(ATTPDU)
    }
}
