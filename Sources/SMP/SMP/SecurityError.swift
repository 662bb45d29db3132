import Support
import HCIPackets
import EventLoops
import HostCore
// Why securing a link failed.

/// A pairing, an encryption or a bond that did not work, said in one line that names what was awaited
/// and what came instead.
public enum SecurityError: Error, Sendable, CustomStringConvertible {
    /// The pairing failed: `byPeer` when the peer sent Pairing Failed, otherwise we sent it.
    case pairingFailed(reason: PairingFailureReason, byPeer: Bool, detail: String)
    /// No SMP answer within the SMP timeout (30 s, Core v5.4 Vol 3 Part H §3.4).
    case timeout(awaited: String, timeout: Duration)
    /// The controller reported that encryption did not start (Encryption Change with a failure status).
    case encryptionFailed(status: HCIStatus, detail: String)
    /// The link ended during the procedure.
    case disconnected(reason: HCIStatus)
    /// The host could not send or was closed.
    case host(HCIError)
    /// A procedure or option this side does not offer.
    case unsupported(String)
    /// The bond store failed (a corrupt file, a write that did not land, a lock not had in time).
    case bondStore(BondStoreError)
    /// A cryptographic primitive failed.
    case crypto(String)

    public var description: String {
        switch self {
        case .pairingFailed(let reason, let byPeer, let detail):
            let who = byPeer ? "the peer sent Pairing Failed" : "we sent Pairing Failed"
            return detail.isEmpty ? "pairing failed: \(who), \(reason)" : "pairing failed: \(who), \(reason): \(detail)"
        case .timeout(let awaited, let timeout):
            return "SMP timeout: no \(awaited) after \(formatDuration(timeout))"
        case .encryptionFailed(let status, let detail):
            return detail.isEmpty ? "encryption failed: \(status)" : "\(detail): \(status)"
        case .disconnected(let reason):
            return "the link ended during pairing or encryption: \(reason)"
        case .host(let error): return error.description
        case .unsupported(let what): return what
        case .bondStore(let what): return "bond store: \(what)"
        case .crypto(let what): return "cryptography: \(what)"
        }
    }
}
