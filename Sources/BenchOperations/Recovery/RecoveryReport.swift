import Foundation

/// `hil recover --json`: the ladder's steps as plain records.
package struct RecoveryReport: Codable, Sendable {
    package struct Step: Codable, Sendable {
        package var name: String
        package var startSeconds: Double
        package var durationSeconds: Double
        package var result: String
        package var outcome: String
    }

    package var moniker: String
    package var before: String
    package var recoveredAt: String?
    package var benchBroken: Bool
    package var steps: [Step]

    package init(moniker: String, before: String, outcome: RecoveryOutcome) {
        self.moniker = moniker
        self.before = before
        steps = outcome.steps.map {
            Step(name: $0.name, startSeconds: $0.startOffset / .seconds(1), durationSeconds: $0.duration / .seconds(1),
                 result: $0.result.rawValue, outcome: $0.outcome)
        }
        switch outcome {
        case .recovered(let rung, _): recoveredAt = rung; benchBroken = false
        case .broken: recoveredAt = nil; benchBroken = true
        }
    }

}
