import Support
import HCIPackets
import EventLoops
import HostCore
/// Why a central or peripheral operation failed, with what was awaited and what came instead.
public enum RoleError: Error, Sendable, CustomStringConvertible {
    /// The host or controller failed underneath.
    case host(HCIError)
    /// No advertiser matched the filter within the scan's time limit.
    case notFound(filter: ScanFilter, timeout: Duration, seen: Int)
    /// LE Create Connection did not complete within the deadline and was cancelled.
    case connectTimeout(address: BDAddress, timeout: Duration)
    /// The controller reported a failed connection.
    case connectionFailed(address: BDAddress, status: HCIStatus)
    /// The connection ended; the reason is the controller's.
    case disconnected(handle: UInt16, reason: HCIStatus)
    /// An operation that is already running (a scan, a connection attempt).
    case busy(String)
    /// A disconnection or other awaited event did not come in time.
    case timeout(awaited: String, timeout: Duration)
    /// A peer's L2CAP signaling answer said no.
    case rejected(String)
    /// The peer sent what the protocol does not allow (the first such PDU, with its bytes).
    case protocolViolation(ProtocolViolation)
    /// The peer refused an LE Credit Based Connection Request (Core v5.4 Vol 3 Part A §4.23), the result by name.
    case channelRefused(spsm: UInt16, result: LECreditBasedConnectionResult)
    /// An LE credit-based channel is closed, and why (closed by either side, or a protocol violation).
    case channelClosed(cid: UInt16, why: String)
    /// An argument outside what the spec allows (an MTU below 23, say).
    case invalidArgument(String)

    public var description: String {
        switch self {
        case .host(let error): error.description
        case .notFound(let filter, let timeout, let seen):
            "no advertiser matching \(filter) within \(formatDuration(timeout)) (\(seen) other advertiser\(seen == 1 ? "" : "s") seen)"
        case .connectTimeout(let address, let timeout):
            "no connection to \(address) within \(formatDuration(timeout)); LE Create Connection cancelled"
        case .connectionFailed(let address, let status):
            "connection to \(address) failed: \(status)"
        case .disconnected(let handle, let reason):
            "connection 0x\(hex4(handle)) ended: \(reason)"
        case .busy(let what): "busy: \(what)"
        case .timeout(let awaited, let timeout): "no \(awaited) within \(formatDuration(timeout))"
        case .rejected(let what): what
        case .protocolViolation(let violation): violation.description
        case .channelRefused(let spsm, let result): "LE credit-based connection to SPSM 0x\(hex4(spsm)) refused: \(result)"
        case .channelClosed(let cid, let why): "channel 0x\(hex4(cid)) is closed: \(why)"
        case .invalidArgument(let what): what
        }
    }
}
