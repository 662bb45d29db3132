import EventLoops
import Synchronization
import PowerMeters

extension SimulatedChargeTrace {
    /// The trace of [`start`, `end`) in bins of `binSeconds`: each bin's exact charge (as `charge(from:to:)`
    /// gives it) over its width, in one pass over the trace — a radio event's charge falls in the bin of its
    /// instant. A last bin cut short by `end` keeps the full width (its mean is its charge over the width), so the
    /// bins' charge adds up to the window's exactly.
    package func bins(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant, binSeconds: Double) -> CurrentTrace {
        let a = offset(start), b = offset(end)
        let width = max(1, Int64((binSeconds * 1e9).rounded()))
        guard b > a else { return CurrentTrace(binSeconds: binSeconds, microamperes: []) }
        let count = Int((b - a + width - 1) / width)
        var charges = [Double](repeating: 0, count: count)
        func bin(_ t: Int64) -> Int? { t >= a && t < b ? Int((t - a) / width) : nil }
        let sleep = model.sleepMicroamperes
        state.withLock { state in
            var spans = state.poweredSpans
            if let since = state.poweredSince { spans.append((since, b)) }
            for span in spans {
                var t = max(span.start, a)
                let stop = min(span.end, b)
                while t < stop, let index = bin(t) {
                    let binEnd = min(a + Int64(index + 1) * width, stop)
                    charges[index] += sleep * Double(binEnd - t) / 1e9
                    t = binEnd
                }
            }
            for impulse in state.impulses { if let index = bin(impulse.at) { charges[index] += impulse.charge } }
            for train in state.trains {
                let stop = min(b, train.end ?? b)
                var k = Self.events(train, before: a)
                while true {
                    let t = train.first + k * train.period
                    guard t < stop, let index = bin(t) else { break }
                    charges[index] += train.charge
                    k += 1
                }
            }
        }
        let seconds = Double(width) / 1e9
        return CurrentTrace(binSeconds: seconds, microamperes: charges.map { $0 / seconds })
    }
}
