import GATT
import Roles

/// Why an MCUmgr SMP exchange with a device failed: what was awaited, for how long, and what came instead; or the
/// failure the device named.
package enum MCUmgrError: Error, Sendable, CustomStringConvertible {
    /// The peer lacks the SMP service or characteristic, or the characteristic lacks a property.
    case notFound(String)
    /// No response within the deadline: what was awaited, the time given, what came instead.
    case silent(awaited: String, timeout: Duration, instead: String)
    /// The caller was cancelled while awaiting a response.
    case cancelled(awaited: String)
    /// The device answered with a failure (rc, or a v2 group error).
    case refused(MCUmgrFailure, request: String)
    /// The device's response is not a message we read.
    case malformed(MCUmgrMessageError, awaited: String)
    /// The device answered against the protocol (an upload offset past the image, backwards from what it took, …).
    case violation(String)
    /// A response to a request already answered, or passed over by the answer to a later one: SMP answers in the
    /// order requests were written.
    case outOfOrder(sequence: UInt8, awaited: String)
    /// A response whose sequence number matches no request in flight.
    case unknownSequence(UInt8, outstanding: [UInt8], awaited: String)
    /// The ATT_MTU leaves no room for image data in an upload request.
    case mtuTooSmall(mtu: Int, request: String)
    /// An earlier wait of this client ended its response stream (a deadline or cancellation): open a new client.
    case closed(String)
    case att(ATTError)
    case role(RoleError)

    package var description: String {
        switch self {
        case .notFound(let what): what
        case .silent(let awaited, let timeout, let instead):
            "no \(awaited) within \(timeout.formatted(.units(allowed: [.seconds, .milliseconds], width: .narrow))); \(instead)"
        case .cancelled(let awaited): "cancelled while awaiting \(awaited)"
        case .refused(let failure, let request): "the device refused \(request): \(failure)"
        case .malformed(let error, let awaited): "malformed \(awaited): \(error)"
        case .violation(let what): "the device broke MCUmgr SMP: \(what)"
        case .outOfOrder(let sequence, let awaited):
            "the device broke MCUmgr SMP: a response to sequence \(sequence) came out of order, after the response to a later request, while awaiting \(awaited)"
        case .unknownSequence(let sequence, let outstanding, let awaited):
            "the device broke MCUmgr SMP: a response to sequence \(sequence), which no request in flight carries (in flight: "
                + (outstanding.isEmpty ? "none" : outstanding.map(String.init).joined(separator: ", ")) + "), while awaiting \(awaited)"
        case .mtuTooSmall(let mtu, let request): "ATT_MTU \(mtu) leaves no room for image data in \(request)"
        case .closed(let why): "MCUmgr client closed: \(why)"
        case .att(let error): error.description
        case .role(let error): error.description
        }
    }
}
