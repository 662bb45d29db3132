import HCIPackets
/// What a host subscriber sees: controller events plus what the host itself concludes.
public enum HostEvent: Sendable {
    /// An event from the controller, decoded.
    case hci(HCIEvent)
    /// A whole L2CAP PDU reassembled from ACL fragments on `handle`.
    case aclPDU(handle: UInt16, data: [UInt8])
    /// The adapter changed state.
    case stateChanged(AdapterState)
    /// The host dropped its connections without a Disconnection Complete (after a Reset, a hardware
    /// error or a closed transport), as the controller forgets them silently.
    case connectionsCleared(handles: [UInt16], why: String)
    /// The controller sent something that could not be decoded, or that nobody asked for.
    case anomaly(String)
}

/// A connection the host knows of, from LE (Enhanced) Connection Complete.
public struct HCIConnection: Sendable, Hashable {
    public var handle: UInt16
    public var role: LEConnectionComplete.Role
    public var peerAddress: BDAddress
    public var peerAddressType: AddressType
    /// Connection interval in 1.25 ms units, latency in events, supervision timeout in 10 ms units.
    public var interval: UInt16
    public var latency: UInt16
    public var supervisionTimeout: UInt16
    public var established: ContinuousClock.Instant
}
