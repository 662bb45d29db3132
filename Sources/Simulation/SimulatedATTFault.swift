import GATT

/// A fault a simulated accessory injects into its ATT server (Core v5.4 Vol 3 Part F)
/// through the server's `interceptor`: answering a request late, not at all, or with an error.
package enum SimulatedATTFault: Hashable, Sendable {
    /// Answer as usual, but after this delay.
    case delay(Duration)
    /// Do not answer (the client's 30 s transaction timer, §3.3.3, runs out).
    case drop
    /// Answer a request with an Error Response carrying this code (the request has no
    /// effect); a command, which has no response, is ignored.
    case fail(ATTErrorCode)

    /// What the server does with `pdu` (a request or command) under this fault.
    package func interception(of pdu: ATTPDU) -> ATTServer.Interception {
        switch self {
        case .delay(let delay):
            .delay(delay)
        case .drop:
            .drop
        case .fail(let code):
            .replace(pdu.isRequest ? .errorResponse(request: pdu.opcode, handle: pdu.handle ?? 0, error: code) : nil)
        }
    }

    /// An `ATTServer.interceptor` that injects the fault `faults` picks for each request and
    /// command (nil: none, handled as usual).
    package static func interceptor(_ faults: @escaping @Sendable (ATTPDU) -> SimulatedATTFault?) -> ATTServer.Interceptor {
        { pdu in faults(pdu)?.interception(of: pdu) }
    }
}
