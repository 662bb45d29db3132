import HCIPackets

/// What the link layer and its peers settled on, as a test awaits it: each a value the controller (or the
/// peer's ATT server) reported, not what this host asked for.
public enum LinkEvent: Sendable, Hashable {
    /// The ATT_MTU both sides use after an Exchange MTU, whichever side started it (Core v5.4 Vol 3 Part F
    /// §3.4.2).
    case mtu(Int)
    /// LE Data Length Change (Vol 4 Part E §7.7.65.7): the longest data PDU each direction now carries.
    case dataLength(LinkDataLength)
    /// LE PHY Update Complete (§7.7.65.12), whoever started the procedure.
    case phy(LinkPHYUpdate)
    /// LE Connection Update Complete (§7.7.65.3), whoever started the update.
    case parameters(LinkParametersUpdate)
    /// A peripheral's L2CAP Connection Parameter Update Request (Vol 3 Part A §4.20) and the central's answer.
    case parameterRequest(LinkParameterRequest)
}

/// The data length of a link each way (Core v5.4 Vol 6 Part B §4.5.10: connEffectiveMaxTxOctets and
/// connEffectiveMaxRxOctets, with their times).
public struct LinkDataLength: Sendable, Hashable, CustomStringConvertible {
    public var transmit: DataLength
    public var receive: DataLength

    /// Every link's length until a Data Length Update: 27 octets, 328 µs each way.
    public static let initial = LinkDataLength(transmit: .initial, receive: .initial)

    public var description: String { "transmitting \(transmit), receiving \(receive)" }
}

/// One LE Connection Update Complete on a link: its status and the parameters in use after it.
public struct LinkParametersUpdate: Sendable, Hashable {
    public var status: HCIStatus
    /// Connection interval (1.25 ms units), peripheral latency, supervision timeout (10 ms units).
    public var interval: UInt16
    public var latency: UInt16
    public var supervisionTimeout: UInt16

    public init(status: HCIStatus, interval: UInt16, latency: UInt16, supervisionTimeout: UInt16) {
        self.status = status
        self.interval = interval
        self.latency = latency
        self.supervisionTimeout = supervisionTimeout
    }
}

/// A Connection Parameter Update Request a peripheral sent, and whether the central accepted it
/// (Connection Parameter Update Response result 0x0000) or rejected it (0x0001).
public struct LinkParameterRequest: Sendable, Hashable {
    public var requested: ConnectionParameters
    public var accepted: Bool

    public init(requested: ConnectionParameters, accepted: Bool) {
        self.requested = requested
        self.accepted = accepted
    }
}
