/// A current trace as samples at given times (seconds from the trace's start), each holding until the next
/// sample's time; the last holds for the interval before it. What a `command` meter's CSV holds
/// (`CurrentTraceCSV`), at whatever rate its program records.
package struct CurrentSamples: Equatable, Sendable {
    /// Seconds from the trace's start, strictly increasing.
    package var times: [Double]
    /// The current of each sample in µA.
    package var microamperes: [Double]

    package init(times: [Double], microamperes: [Double]) {
        (self.times, self.microamperes) = (times, microamperes)
    }

    /// The trace's end: the last sample's time plus the interval before it.
    package var end: Double {
        guard let last = times.last else { return 0 }
        return times.count > 1 ? last + (last - times[times.count - 2]) : last
    }

    /// The charge in µC drawn in [`start`, `end`) seconds, each sample's current held until the next.
    package func chargeMicrocoulombs(from start: Double, to stop: Double) -> Double {
        guard stop > start else { return 0 }
        var charge = 0.0
        for index in times.indices {
            let from = times[index], to = index + 1 < times.count ? times[index + 1] : end
            let overlap = min(to, stop) - max(from, start)
            if overlap > 0 { charge += microamperes[index] * overlap }
        }
        return charge
    }

    /// The figures of [`start`, `stop`) seconds from a supply of `supplyVolts`, on a nominal grid of
    /// `samplesPerSecond` (the window's length in samples); a window past the trace's end counts no charge
    /// there, so the caller checks `end` first.
    package func figures(from start: Double, to stop: Double, samplesPerSecond: Int, supplyVolts: Double) -> CurrentFigures {
        let samples = Int((max(0, stop - start) * Double(samplesPerSecond)).rounded())
        return CurrentFigures(sum: chargeMicrocoulombs(from: start, to: stop) * Double(samplesPerSecond), samples: samples,
                              samplesPerSecond: samplesPerSecond, supplyVolts: supplyVolts)
    }
}
