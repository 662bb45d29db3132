/// Percentiles and histograms of measurement samples (a loop's latencies).
public enum SampleStatistics {
    public struct Percentiles: Sendable, Hashable {
        public var p50: Double
        public var p95: Double
        public var p99: Double
        public var min: Double
        public var max: Double
    }

    /// Percentiles by linear interpolation between closest ranks (the "R-7"/NumPy default definition).
    /// Non-finite samples are ignored; an empty input gives zeros.
    public static func percentiles(_ samples: [Double]) -> Percentiles {
        let sorted = samples.filter(\.isFinite).sorted()
        guard let first = sorted.first, let last = sorted.last else { return Percentiles(p50: 0, p95: 0, p99: 0, min: 0, max: 0) }
        return Percentiles(p50: quantile(sorted, 0.50), p95: quantile(sorted, 0.95), p99: quantile(sorted, 0.99), min: first, max: last)
    }

    /// The `q` quantile of sorted, non-empty samples.
    static func quantile(_ sorted: [Double], _ q: Double) -> Double {
        let position = q * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = Swift.min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }

    /// Equal-width bins over [min, max] (widened to `include`, e.g. a budget): the counts, and the edges
    /// (one more than the counts).
    public static func histogram(_ samples: [Double], bins requested: Int? = nil, include: Double? = nil) -> (counts: [Int], edges: [Double]) {
        let values = samples.filter(\.isFinite)
        guard var low = values.min(), var high = values.max() else { return ([], []) }
        if let include, include.isFinite {
            low = Swift.min(low, include)
            high = Swift.max(high, include)
        }
        let bins = requested ?? Swift.min(20, Swift.max(5, Int(Double(values.count).squareRoot().rounded(.up))))
        var width = high > low ? (high - low) / Double(bins) : 1
        if !width.isFinite || width <= 0 { width = .greatestFiniteMagnitude / Double(bins) }
        var counts = Array(repeating: 0, count: bins)
        for value in values {
            let position = ((value - low) / width).rounded(.down)
            let index = position.isFinite ? Swift.min(bins - 1, Swift.max(0, Int(Swift.min(position, Double(bins))))) : bins - 1
            counts[index] += 1
        }
        let edges = (0...bins).map { low + Double($0) * width }
        return (counts, edges)
    }
}
