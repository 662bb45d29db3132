import Foundation

/// Round steps for the report's axes: 1, 2 and 5 × 10ⁿ.
enum AxisSteps {
    /// The smallest round step no smaller than `raw` (a positive, finite number).
    static func roundStep(atLeast raw: Double) -> Double {
        let magnitude = pow(10, floor(log10(raw)))
        return [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw * (1 - 1e-12) } ?? 10 * magnitude
    }

    /// The round step after `step`: 1 → 2 → 5 → 10.
    static func next(after step: Double) -> Double {
        roundStep(atLeast: step * 1.01)
    }
}
