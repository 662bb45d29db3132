import HCIPackets

/// How a central answers a peripheral's L2CAP Connection Parameter Update Request (Core v5.4 Vol 3 Part A
/// §4.20–4.21): parameters outside the ranges of Vol 4 Part E §7.8.18 are rejected whatever the policy.
public enum ParameterRequestPolicy: Sendable {
    /// Accept every valid request and apply it with LE Connection Update (the default).
    case acceptValid
    /// Reject every request: Connection Parameter Update Response result 0x0001.
    case rejectAll
    /// Accept the valid requests `decide` approves.
    case decide(@Sendable (ConnectionParameters) -> Bool)

    /// Whether a request for `parameters`, already found valid, is accepted.
    func accepts(_ parameters: ConnectionParameters) -> Bool {
        switch self {
        case .acceptValid: true
        case .rejectAll: false
        case .decide(let decide): decide(parameters)
        }
    }
}

extension LEDevice {
    /// Sets how this device, as central, answers its peripherals' Connection Parameter Update Requests.
    public func setParameterRequestPolicy(_ policy: ParameterRequestPolicy) {
        parameterRequestPolicy = policy
    }
}
