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
    /// The samples the meter said were lost on the way (a PPK2's counter gaps), counted among `samples`, each
    /// standing in as the sample before its gap.
    package var lostSamples = 0

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

    /// Adds `samples` in order, as `add` does one by one (to the same sums, bit for bit), each window's share in one pass.
    package mutating func add(_ samples: ArraySlice<PPK2Sample>) {
        samples.withUnsafeBufferPointer { samples in
            var next = 0
            while next < samples.count {
                if count % windowSamples == 0 { windowSums.append(0); windowCounts.append(0) }
                let end = min(samples.count, next + windowSamples - count % windowSamples)
                var windowSum = windowSums[windowSums.count - 1], logic: UInt8 = 0
                for index in next..<end {
                    windowSum += samples[index].microamperes
                    sum += samples[index].microamperes
                    logic |= samples[index].logic
                }
                count += end - next
                windowSums[windowSums.count - 1] = windowSum
                windowCounts[windowCounts.count - 1] += end - next
                logicSeen |= logic
                next = end
            }
        }
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
