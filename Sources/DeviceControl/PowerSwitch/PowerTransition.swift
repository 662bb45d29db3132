/// What was asked of a switch.
package enum PowerAction: Sendable, Equatable, CustomStringConvertible {
    case on
    case off
    case cycle(offTime: Duration)

    package init(_ power: Power) { self = power == .on ? .on : .off }

    package var description: String {
        switch self {
        case .on: return "on"
        case .off: return "off"
        case .cycle(let offTime): return "cycle (off \(offTime.seconds))"
        }
    }
}

/// Whether a transition was seen to happen.
package enum Verification: Sendable, Equatable, CustomStringConvertible {
    /// It was observed; the evidence says how (`1-1.4.2 (2fe3:000b) left after 0.4 s`).
    case verified(evidence: String)
    /// Nothing observable depends on this switch; the reason says why and how to fix that.
    case unverified(reason: String)

    package var isVerified: Bool { if case .verified = self { return true } else { return false } }

    package var description: String {
        switch self {
        case .verified(let evidence): return "verified: \(evidence)"
        case .unverified(let reason): return "unverified: \(reason)"
        }
    }

    /// A cycle is verified only when both halves are.
    package static func combine(off: Verification, on: Verification) -> Verification {
        switch (off, on) {
        case (.verified(let a), .verified(let b)): return .verified(evidence: "off: \(a); on: \(b)")
        case (.unverified(let a), .unverified(let b)): return .unverified(reason: "off: \(a); on: \(b)")
        case (.unverified(let a), .verified(let b)): return .unverified(reason: "off: \(a) (on: \(b))")
        case (.verified(let a), .unverified(let b)): return .unverified(reason: "on: \(b) (off: \(a))")
        }
    }
}

/// The outcome of `on`, `off` or `cycle` that did not throw.
public struct PowerTransition: Sendable, Equatable {
    package var switchName: String
    package var action: PowerAction
    package var verification: Verification
    package var elapsed: Duration
    /// What was done, in order, for logs: `wrote 1 to …/1-1.4-port2/disable`, `1-1.4.2 left after 0.3 s`.
    package var steps: [String]

    package init(switchName: String, action: PowerAction, verification: Verification, elapsed: Duration, steps: [String]) {
        self.switchName = switchName
        self.action = action
        self.verification = verification
        self.elapsed = elapsed
        self.steps = steps
    }
}
