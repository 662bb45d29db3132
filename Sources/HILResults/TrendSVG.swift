import Foundation
import Support

/// The SVG trend line of one measurement's p95 over runs of a history (`points` and `runs` in step, `runs` any
/// consecutive ones, each labelled by its number in the history): a point per run that measured it, runs evenly spaced left to right (oldest first, labelled by run number), lines joining neighbouring
/// points (a run without a point breaks the line), the value axis from zero. Each point has a `<title>`
/// (the browser's tooltip) with the run, its start, its commit and the p95.
enum TrendSVG {
    static let width = 880.0
    static let height = 200.0
    static let left = 64.0
    static let right = 20.0
    static let top = 14.0
    static let bottom = 30.0

    static func render(_ series: MeasurementSeries, runs: [RunHistory.Run]) -> String? {
        let values = series.points.compactMap { $0?.p95 }.filter(\.isFinite)
        guard let largest = values.max(), let smallest = values.min(), !runs.isEmpty else { return nil }
        let low = Swift.min(0, smallest)
        let span = largest - low
        // A spread too wide for a Double (±1e308) has no drawing; the table beside it still lists the numbers.
        guard span.isFinite else { return nil }
        let ticks = TimelineSVG.axisTicks(upTo: Swift.max(span, 1e-9)).map { low + $0 }
        let high = Swift.max(ticks.last ?? largest, largest)
        let plotWidth = width - left - right
        let plotHeight = height - top - bottom
        func x(_ index: Int) -> Double {
            runs.count == 1 ? left + plotWidth / 2 : left + Double(index) / Double(runs.count - 1) * plotWidth
        }
        func y(_ value: Double) -> Double { top + plotHeight - (value - low) / Swift.max(high - low, 1e-9) * plotHeight }
        let unit = XMLEscaping.text(series.unit)

        var svg = "<svg class=\"trend\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\""
        svg += " viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"p95 of \(XMLEscaping.text(series.name)) per run\">\n"
        for tick in ticks {
            let ty = n(y(tick))
            svg += "<line class=\"grid\" x1=\"\(n(left))\" y1=\"\(ty)\" x2=\"\(n(width - right))\" y2=\"\(ty)\"/>"
            svg += "<text class=\"tick\" x=\"\(n(left - 6))\" y=\"\(n(y(tick) + 4))\" text-anchor=\"end\">\(XMLEscaping.text(ReportNumber.text(tick, digits: 4))) \(unit)</text>\n"
        }
        let labelEvery = Swift.max(1, Int((Double(runs.count) / 20).rounded(.up)))
        for (position, run) in runs.enumerated() where position % labelEvery == 0 || position == runs.count - 1 {
            svg += "<text class=\"tick\" x=\"\(n(x(position)))\" y=\"\(n(height - bottom + 16))\" text-anchor=\"middle\">#\(run.index + 1)</text>"
        }
        svg += "\n"
        for segment in segments(series.points) where segment.count > 1 {
            let points = segment.map { "\(n(x($0.index))),\(n(y($0.p95)))" }.joined(separator: " ")
            svg += "<polyline class=\"line\" points=\"\(points)\"/>\n"
        }
        for (index, point) in series.points.enumerated() {
            guard let point, point.p95.isFinite, runs.indices.contains(index) else { continue }
            let run = runs[index]
            var title = "run #\(run.index + 1), \(ISO8601.string(run.started))"
            if let commit = run.commit { title += ", commit \(commit.prefix(12))" }
            title += ": p95 \(ReportNumber.text(point.p95, digits: 4)) \(series.unit) over \(point.count) \(point.fromSamples ? "sample" : "value")\(point.count == 1 ? "" : "s")"
            svg += "<circle class=\"point\" cx=\"\(n(x(index)))\" cy=\"\(n(y(point.p95)))\" r=\"4\"><title>\(XMLEscaping.text(title))</title></circle>\n"
        }
        svg += "</svg>"
        return svg
    }

    /// Runs of neighbouring runs that have a finite point.
    static func segments(_ points: [MeasurementSeries.Point?]) -> [[(index: Int, p95: Double)]] {
        var segments: [[(index: Int, p95: Double)]] = [[]]
        for (index, point) in points.enumerated() {
            if let point, point.p95.isFinite {
                segments[segments.count - 1].append((index, point.p95))
            } else if !(segments.last?.isEmpty ?? true) {
                segments.append([])
            }
        }
        return segments.filter { !$0.isEmpty }
    }

    /// An SVG coordinate with one decimal.
    static func n(_ value: Double) -> String { TimelineSVG.n(value) }
}
