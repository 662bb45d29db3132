import Foundation

/// `hil recover --json`: the ladder's steps as plain records.
public struct RecoveryReport: Codable, Sendable {
    public struct Step: Codable, Sendable {
        public var name: String
        public var startSeconds: Double
        public var durationSeconds: Double
        public var result: String
        public var outcome: String
    }

    public var moniker: String
    public var before: String
    public var recoveredAt: String?
    public var benchBroken: Bool
    public var steps: [Step]

    public init(moniker: String, before: String, outcome: RecoveryOutcome) {
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
