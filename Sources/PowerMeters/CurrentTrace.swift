/// A current trace as consecutive equal bins from a start: each bin's mean current in µA. It is what the
/// bench writes beside a case's capture (`CurrentTraceCSV`) and what the report plots; a bin's mean current
/// times its width is the bin's exact charge when the meter integrates exactly (the simulated meter).
package struct CurrentTrace: Equatable, Sendable {
    /// The width of each bin in seconds.
    package var binSeconds: Double
    /// The mean current of each bin in µA, the first bin starting at the trace's start.
    package var microamperes: [Double]

    package init(binSeconds: Double, microamperes: [Double]) {
        (self.binSeconds, self.microamperes) = (binSeconds, microamperes)
    }

    /// The charge of the whole trace in µC.
    package var chargeMicrocoulombs: Double { microamperes.reduce(0, +) * binSeconds }

    /// The bin width for a trace of `seconds`: 1 ms, or the smallest 1, 2 or 5 × 10ⁿ s that keeps it within
    /// `maximumBins` bins (so a long case's file stays small).
    package static func binSeconds(for seconds: Double, maximumBins: Int = 5000) -> Double {
        var width = 0.001
        let steps = [1.0, 2.0, 5.0]
        var decade = 0.001
        var index = 0
        while seconds / width > Double(maximumBins) {
            index += 1
            if index == steps.count { index = 0; decade *= 10 }
            width = steps[index] * decade
        }
        return width
    }

    /// At most `count` points for a plot: the trace's bins merged in equal groups, each the group's mean
    /// current (so the plot's area is still the charge), with the width of a group in seconds.
    package func downsampled(toAtMost count: Int) -> CurrentTrace {
        let group = max(1, (microamperes.count + max(1, count) - 1) / max(1, count))
        guard group > 1 else { return self }
        var merged: [Double] = []
        var index = 0
        while index < microamperes.count {
            let slice = microamperes[index..<min(index + group, microamperes.count)]
            merged.append(slice.reduce(0, +) / Double(slice.count))
            index += group
        }
        return CurrentTrace(binSeconds: binSeconds * Double(group), microamperes: merged)
    }
}
