import Support
import HCIPackets
import EventLoops
import HCITransports
/// Why a host operation failed. Every case names what was awaited and what came instead.
public enum HCIError: Error, Sendable, CustomStringConvertible {
    /// No Command Complete/Status arrived for `opcode` within `timeout`; `sent` is false when the command
    /// was still queued because the controller gave no command credit.
    case commandTimeout(opcode: HCIOpcode, timeout: Duration, sent: Bool)
    /// The controller answered `opcode` with a non-zero status.
    case commandFailed(opcode: HCIOpcode, status: HCIStatus)
    /// An awaited event did not arrive. `recent` lists the last events that came instead.
    case eventTimeout(awaited: String, timeout: Duration, recent: [String])
    /// The transport closed; every pending wait fails with this at once.
    case transportClosed(HCITransportError)
    /// The command needs `poweredOn` and the adapter is in `state`.
    case notPoweredOn(opcode: HCIOpcode, state: AdapterState)
    /// The controller reported HCI_Hardware_Error with this code.
    case hardwareError(code: UInt8)
    /// The controller sent bytes that do not decode.
    case malformed(HCIDecodingError)
    /// No connection with this handle exists.
    case unknownConnection(handle: UInt16)
    /// ACL data could not be handed to the controller: no buffer credit within `timeout`.
    case aclCreditTimeout(handle: UInt16, timeout: Duration)
    /// The controller lacks what the operation needs.
    case unsupported(String)
    /// A connection the operation relied on ended.
    case disconnected(handle: UInt16, reason: HCIStatus)
    /// The task awaiting `awaited` was cancelled after `waited`; the wait ended at once.
    case cancelled(awaited: String, waited: Duration)

    public var description: String {
        switch self {
        case .commandTimeout(let opcode, let timeout, let sent):
            sent ? "\(opcode): no Command Complete or Command Status after \(formatDuration(timeout))"
                 : "\(opcode): not sent within \(formatDuration(timeout)): the controller granted no command credit"
        case .commandFailed(let opcode, let status):
            "\(opcode) failed: \(status)"
        case .eventTimeout(let awaited, let timeout, let recent):
            "no \(awaited) after \(formatDuration(timeout))" + (recent.isEmpty ? "; no events came instead" : "; came instead: " + recent.joined(separator: ", "))
        case .transportClosed(let error):
            "transport closed: \(error)"
        case .notPoweredOn(let opcode, let state):
            "\(opcode) needs the adapter poweredOn; it is \(state)"
        case .hardwareError(let code):
            "the controller reported Hardware Error 0x\(hex2(code))"
        case .malformed(let error):
            "malformed data from the controller: \(error)"
        case .unknownConnection(let handle):
            "no connection with handle 0x\(hex4(handle))"
        case .aclCreditTimeout(let handle, let timeout):
            "ACL data for handle 0x\(hex4(handle)): no controller buffer free after \(formatDuration(timeout))"
        case .unsupported(let what):
            "unsupported: \(what)"
        case .disconnected(let handle, let reason):
            "connection 0x\(hex4(handle)) ended: \(reason)"
        case .cancelled(let awaited, let waited):
            "cancelled after \(formatDuration(waited)) while awaiting \(awaited)"
        }
    }
}
