import Foundation

/// One rung of a recovery attempt as the runner's timeline records it.
package struct RecoveryStep: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How the rung ended.
    package enum Result: String, Sendable, Hashable, Codable {
        /// The adapter answered afterwards: the ladder stops here.
        case recovered
        /// The rung ran and the adapter still does not answer (or the rung's action failed).
        case failed
        /// The rung could not run on this bench (no USB reset for an hci-socket adapter, no hub switch).
        case skipped
    }

    /// `HCI Reset`, `USB reset`, `close and reopen`, `power-cycle hub port`.
    package var name: String
    /// When the rung began, from the start of the ladder.
    package var startOffset: Duration
    package var duration: Duration
    package var result: Result
    /// What happened, in one line: the error or the evidence.
    package var outcome: String

    /// `+0.00 s  HCI Reset (2.00 s): failed: …`.
    package var description: String {
        "+\(Self.seconds(startOffset)) s  \(name) (\(Self.seconds(duration)) s): \(result.rawValue): \(outcome)"
    }

    static func seconds(_ duration: Duration) -> String {
        String(format: "%.2f", duration / .seconds(1))
    }
}

/// The bench cannot be brought back: every rung was tried (or could not run). The suites turn this into
/// an infrastructure verdict rather than a product failure.
package struct BenchBroken: Error, Sendable, Hashable, CustomStringConvertible {
    /// The adapter that stayed unusable (its moniker).
    package var adapter: String
    package var steps: [RecoveryStep]

    package var description: String {
        let tried = steps.map { "\($0.name): \($0.result.rawValue)" }.joined(separator: "; ")
        let last = steps.last(where: { $0.result == .failed })?.outcome ?? "no rung could run"
        return "bench broken: \(adapter) did not recover (\(tried)); last failure: \(last)"
    }
}

/// What a climb of the ladder ended with.
package enum RecoveryOutcome: Sendable {
    /// A rung brought the adapter back; `steps` ends with that rung.
    case recovered(rung: String, steps: [RecoveryStep])
    /// Nothing did.
    case broken(BenchBroken)

    package var steps: [RecoveryStep] {
        switch self {
        case .recovered(_, let steps): steps
        case .broken(let broken): broken.steps
        }
    }
}
