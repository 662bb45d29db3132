/// Power as a switch is asked to set it.
package enum Power: String, Sendable, Equatable, CaseIterable {
    case on, off

    package var opposite: Power { self == .on ? .off : .on }
}

/// What a switch reports about its output. `unknown` carries why it cannot tell.
package enum PowerState: Sendable, Equatable, CustomStringConvertible {
    case on
    case off
    case unknown(reason: String)

    package init(_ power: Power) { self = power == .on ? .on : .off }

    package var description: String {
        switch self {
        case .on: return "on"
        case .off: return "off"
        case .unknown: return "unknown"
        }
    }
}

/// A switch's report: the state and the evidence it rests on (`port 2: power bit clear, sysfs disable=1`).
public struct PowerStatus: Sendable, Equatable, CustomStringConvertible {
    package var state: PowerState
    package var detail: String

    package init(state: PowerState, detail: String) {
        self.state = state
        self.detail = detail
    }

    public var description: String {
        if case .unknown(let reason) = state { return "unknown (\(reason))" + (detail.isEmpty ? "" : ": \(detail)") }
        return detail.isEmpty ? state.description : "\(state) (\(detail))"
    }

    /// The combined report of several outputs switched together (a hub's USB 2 and USB 3 ports, two relays).
    package static func combining(_ parts: [PowerStatus]) -> PowerStatus {
        let detail = parts.map(\.detail).filter { !$0.isEmpty }.joined(separator: "; ")
        if parts.isEmpty { return PowerStatus(state: .unknown(reason: "no outputs"), detail: detail) }
        if parts.allSatisfy({ $0.state == .on }) { return PowerStatus(state: .on, detail: detail) }
        if parts.allSatisfy({ $0.state == .off }) { return PowerStatus(state: .off, detail: detail) }
        for part in parts { if case .unknown(let reason) = part.state { return PowerStatus(state: .unknown(reason: reason), detail: detail) } }
        return PowerStatus(state: .unknown(reason: "outputs disagree"), detail: detail)
    }
}
