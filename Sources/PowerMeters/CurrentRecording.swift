/// A current trace summed as it streams in, for recordings too long to keep sample by sample: the figures of
/// the whole and of each window of `windowSamples` samples, and the logic inputs seen.
package struct CurrentRecording: Equatable, Sendable {
    package let samplesPerSecond: Int
    package let supplyVolts: Double
    /// Samples per window; the last window may be shorter.
    package let windowSamples: Int
    private var sum = 0.0
    private var count = 0
    private var windowSums: [Double] = []
    private var windowCounts: [Int] = []
    /// The logic inputs that were high in any sample (D0 the least significant bit).
    package private(set) var logicSeen: UInt8 = 0

    package init(samplesPerSecond: Int, supplyVolts: Double, windowSamples: Int) {
        self.samplesPerSecond = samplesPerSecond
        self.supplyVolts = supplyVolts
        self.windowSamples = max(1, windowSamples)
    }

    package var samples: Int { count }

    package mutating func add(_ microamperes: Double, logic: UInt8 = 0) {
        if count % windowSamples == 0 { windowSums.append(0); windowCounts.append(0) }
        sum += microamperes
        count += 1
        windowSums[windowSums.count - 1] += microamperes
        windowCounts[windowCounts.count - 1] += 1
        logicSeen |= logic
    }

    /// The whole recording's figures.
    package var total: CurrentFigures {
        CurrentFigures(sum: sum, samples: count, samplesPerSecond: samplesPerSecond, supplyVolts: supplyVolts)
    }

    /// Each window's figures, in order.
    package var windows: [CurrentFigures] {
        zip(windowSums, windowCounts).map { CurrentFigures(sum: $0, samples: $1, samplesPerSecond: samplesPerSecond, supplyVolts: supplyVolts) }
    }
}
