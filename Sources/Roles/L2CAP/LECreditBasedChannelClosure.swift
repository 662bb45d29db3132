import HCIPackets

/// Why an LE credit-based channel closed.
public enum LECreditBasedChannelClosure: Sendable, Hashable, CustomStringConvertible {
    /// Our `close()` (a Disconnection Request from us, Core v5.4 Vol 3 Part A §4.6).
    case local
    /// The peer's Disconnection Request.
    case peer
    /// The peer broke the channel's rules (§3.4.3, §10.1) and we disconnected it; the violation in words.
    case violation(String)
    /// A send gave up part-way through an SDU: the peer cannot reassemble what follows, so the channel went.
    case abandonedSDU(String)
    /// The link under it ended, with the controller's reason.
    case linkEnded(HCIStatus)

    public var description: String {
        switch self {
        case .local: "closed by us"
        case .peer: "closed by the peer (Disconnection Request)"
        case .violation(let what): "disconnected after a protocol violation: \(what)"
        case .abandonedSDU(let what): "disconnected after an SDU was abandoned part-way: \(what)"
        case .linkEnded(let reason): "the link ended: \(reason)"
        }
    }
}
