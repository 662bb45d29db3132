/// The SVG histogram of a measurement's samples (a loop's latencies): equal-width bars, p50/p95/p99
/// marked, the budget as a red dashed line when there is one.
enum HistogramSVG {
    static let width = 440.0
    static let height = 150.0
    static let left = 36.0
    static let bottom = 28.0
    static let top = 12.0

    static func render(_ measurement: Measurement) -> String? {
        let finite = measurement.samples?.filter(\.isFinite) ?? []
        // A spread too wide for a Double (±1e308) has no drawing.
        guard let samples = measurement.samples, finite.count >= 2, let smallest = finite.min(), let largest = finite.max(),
              (largest - smallest).isFinite else { return nil }
        let (counts, edges) = SampleStatistics.histogram(samples, include: measurement.budget)
        guard let low = edges.first, let high = edges.last, let tallest = counts.max(), tallest > 0 else { return nil }
        let plotWidth = width - left - 12
        let plotHeight = height - top - bottom
        let range = high > low ? high - low : 1
        guard range.isFinite, low.isFinite, high.isFinite else { return nil }
        func x(_ value: Double) -> Double { left + (value - low) / range * plotWidth }
        let barWidth = plotWidth / Double(counts.count)
        let p = SampleStatistics.percentiles(samples)
        let unit = Markup.escape(measurement.unit)

        var svg = "<svg class=\"histogram\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\""
        svg += " viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"histogram of \(Markup.escape(measurement.name))\">\n"
        for (index, count) in counts.enumerated() where count > 0 {
            let barHeight = Double(count) / Double(tallest) * plotHeight
            let bx = left + Double(index) * barWidth
            let over = measurement.budget.map { edges[index] >= $0 } ?? false
            svg += "<rect class=\"bar\(over ? " over" : "")\" x=\"\(n(bx + 0.5))\" y=\"\(n(top + plotHeight - barHeight))\" width=\"\(n(Swift.max(1, barWidth - 1)))\" height=\"\(n(barHeight))\">"
            svg += "<title>\(count) sample\(count == 1 ? "" : "s") in \(Markup.number(edges[index], digits: 4))–\(Markup.number(edges[index + 1], digits: 4)) \(unit)</title></rect>\n"
        }
        let baseline = top + plotHeight
        svg += "<line class=\"axis\" x1=\"\(n(left))\" y1=\"\(n(baseline))\" x2=\"\(n(left + plotWidth))\" y2=\"\(n(baseline))\"/>\n"
        svg += "<text class=\"tick\" x=\"\(n(left))\" y=\"\(n(baseline + 14))\" text-anchor=\"start\">\(Markup.number(low, digits: 4)) \(unit)</text>"
        svg += "<text class=\"tick\" x=\"\(n(left + plotWidth))\" y=\"\(n(baseline + 14))\" text-anchor=\"end\">\(Markup.number(high, digits: 4)) \(unit)</text>\n"
        svg += "<text class=\"tick\" x=\"\(n(left - 4))\" y=\"\(n(top + 8))\" text-anchor=\"end\">\(tallest)</text>\n"
        for (name, value) in [("p50", p.p50), ("p95", p.p95), ("p99", p.p99)] {
            let px = n(x(value))
            svg += "<line class=\"percentile\" x1=\"\(px)\" y1=\"\(n(top))\" x2=\"\(px)\" y2=\"\(n(baseline))\"><title>\(name) \(Markup.number(value, digits: 4)) \(unit)</title></line>"
            svg += "<text class=\"pname\" x=\"\(px)\" y=\"\(n(baseline + 24))\" text-anchor=\"middle\">\(name)</text>\n"
        }
        if let budget = measurement.budget, budget.isFinite {
            let bx = n(x(budget))
            svg += "<line class=\"budget\" x1=\"\(bx)\" y1=\"\(n(top - 4))\" x2=\"\(bx)\" y2=\"\(n(baseline))\"><title>budget \(Markup.number(budget, digits: 4)) \(unit)</title></line>\n"
        }
        svg += "</svg>"
        return svg
    }

    static func n(_ value: Double) -> String { Markup.number(value, digits: 1) }
}
