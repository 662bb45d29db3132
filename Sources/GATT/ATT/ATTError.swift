import Support
import HCIPackets
import HostCore
import EventLoops
// Why an ATT client request failed.

/// Why a `GATTClient` request failed. Every case names the request (as the PDU
/// sent), and where it applies how long it waited and what came instead.
public enum ATTError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No response within the transaction timeout (Core v5.4 Vol 3 Part F §3.3.3:
    /// 30 s). The bearer is closed afterwards: no further ATT PDUs are sent on it.
    /// `receivedInstead` lists PDUs that arrived meanwhile (notifications, …).
    case timeout(request: ATTPDU, after: Duration, receivedInstead: [String])
    /// The server answered with an Error Response (§3.4.1.1).
    case errorResponse(request: ATTPDU, handle: UInt16, code: ATTErrorCode)
    /// The server answered with a PDU that does not answer the request.
    case unexpectedResponse(request: ATTPDU, received: ATTPDU)
    /// The server's response did not decode.
    case malformedResponse(request: ATTPDU, ATTDecodingError)
    /// The response decoded but breaks the procedure's rules (handles going
    /// backwards, a UUID of the wrong size, an echo that differs, …).
    case invalidResponse(request: ATTPDU, reason: String)
    /// The bearer closed (disconnection) while the request was outstanding
    /// (`after` is how long it had waited) or queued (`after` is nil).
    case disconnected(request: ATTPDU, reason: String, after: Duration?)
    /// The bearer was already closed when the request was made.
    case bearerClosed(request: ATTPDU?, reason: String)
    /// The `send` hook threw while sending the request.
    case sendFailed(request: ATTPDU, reason: String)
    /// The caller's task was cancelled before the request was sent.
    case cancelled(request: ATTPDU)
    /// The caller asked for something ATT cannot carry (e.g. a value over 512 octets).
    case invalidArgument(String)
    /// The server broke the protocol in answer to `request` (a PDU over the ATT_MTU, an MTU below 23), with
    /// the offending bytes.
    case protocolViolation(request: ATTPDU?, ProtocolViolation)

    /// Whether the server refused for lack of link security (0x05, 0x0C, 0x0F): pairing, or encrypting with
    /// a bond, may let the request through.
    public var needsSecurity: Bool { errorCode?.securityAdvice != nil }

    /// The ATT error code, when the server answered with an Error Response.
    public var errorCode: ATTErrorCode? {
        if case .errorResponse(_, _, let code) = self { return code }
        return nil
    }

    public var description: String {
        switch self {
        case .timeout(let request, let after, let instead):
            let expected = request.expectedResponseOpcode?.name ?? "response"
            return "\(request): no \(expected) within \(formatDuration(after))"
                + (instead.isEmpty ? "; nothing came instead" : "; came instead: " + instead.joined(separator: ", "))
                + "; the ATT bearer is closed (Vol 3 Part F §3.3.3)"
        case .errorResponse(let request, let handle, let code):
            return "\(request) failed at handle \(HexFormat.prefixed(handle, width: 4)): \(code)" + (code.securityAdvice.map { ": \($0)" } ?? "")
        case .unexpectedResponse(let request, let received):
            let expected = request.expectedResponseOpcode?.name ?? "a response"
            return "\(request): expected \(expected), got \(received)"
        case .malformedResponse(let request, let error):
            return "\(request): malformed response: \(error)"
        case .invalidResponse(let request, let reason):
            return "\(request): invalid response: \(reason)"
        case .disconnected(let request, let reason, let after):
            if let after {
                return "\(request): the ATT bearer closed after \(formatDuration(after)) while waiting for "
                    + "\(request.expectedResponseOpcode?.name ?? "a response"): \(reason)"
            }
            return "\(request): the ATT bearer closed before it was sent: \(reason)"
        case .bearerClosed(let request, let reason):
            return (request.map { "\($0): " } ?? "") + "the ATT bearer is closed: \(reason)"
        case .sendFailed(let request, let reason):
            return "\(request): could not be sent: \(reason)"
        case .cancelled(let request):
            return "\(request): cancelled before it was sent"
        case .invalidArgument(let what):
            return what
        case .protocolViolation(let request, let violation):
            return (request.map { "\($0): " } ?? "") + violation.description
        }
    }
}
