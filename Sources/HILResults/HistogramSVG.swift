import Foundation
import Support

/// The SVG histogram of a measurement's samples (a loop's latencies): equal-width bars, p50/p95/p99
/// markers and the budget line when there is one. Labels never overprint: the percentile and budget
/// names are stacked in rows above the plot (a name moves up a row when it would touch its neighbour;
/// percentiles on one spot share a label, `p50/p95/p99`),
/// and the x axis has only as many round ticks (`AxisSteps`, no finer than the unit resolves) as fit
/// their labels. Every number is a `MeasuredValue`; the unit is written once, under the axis.
enum HistogramSVG {
    static let width = 520.0
    static let left = 40.0
    static let right = 14.0
    static let plotHeight = 110.0
    static let rowHeight = 14.0
    /// Tick labels, then the unit.
    static let axisHeight = 36.0
    /// A generous width of one label character at the 11 px font (DejaVu Sans digits are 7 px).
    static let charWidth = 7.0
    static let labelGap = 6.0

    static func render(_ measurement: Measurement) -> String? {
        let finite = measurement.samples?.filter(\.isFinite) ?? []
        // A spread too wide for a Double (±1e308) has no drawing.
        guard let samples = measurement.samples, finite.count >= 2, let smallest = finite.min(), let largest = finite.max(),
              (largest - smallest).isFinite else { return nil }
        let (counts, edges) = SampleStatistics.histogram(samples, include: measurement.budget)
        guard let low = edges.first, let high = edges.last, let tallest = counts.max(), tallest > 0 else { return nil }
        let plotWidth = width - left - right
        let range = high > low ? high - low : 1
        guard range.isFinite, low.isFinite, high.isFinite else { return nil }
        func x(_ value: Double) -> Double { left + (value - low) / range * plotWidth }
        func value(_ number: Double) -> String { XMLEscaping.text(MeasuredValue(number, unit: measurement.unit).text) }
        let p = SampleStatistics.percentiles(samples)

        var markers = [Marker(name: "p50", value: p.p50, cls: "percentile"), Marker(name: "p95", value: p.p95, cls: "percentile"),
                       Marker(name: "p99", value: p.p99, cls: "percentile")]
        if let budget = measurement.budget, budget.isFinite { markers.append(Marker(name: "budget", value: budget, cls: "budget")) }
        let labels = group(markers, x: x)
        let placed = stack(labels.map { (x: $0.x, text: $0.text) })
        let rows = (placed.map(\.row).max() ?? 0) + 1
        let top = 4 + Double(rows) * rowHeight + 4
        let baseline = top + plotHeight
        let height = baseline + axisHeight

        var svg = "<svg class=\"histogram\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\""
        svg += " viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"histogram of \(XMLEscaping.text(measurement.name))\">\n"
        let barWidth = plotWidth / Double(counts.count)
        for (index, count) in counts.enumerated() where count > 0 {
            let barHeight = Double(count) / Double(tallest) * plotHeight
            let bx = left + Double(index) * barWidth
            let over = measurement.budget.map { edges[index] >= $0 } ?? false
            svg += "<rect class=\"bar\(over ? " over" : "")\" x=\"\(n(bx + 0.5))\" y=\"\(n(baseline - barHeight))\" width=\"\(n(Swift.max(1, barWidth - 1)))\" height=\"\(n(barHeight))\">"
            svg += "<title>\(count) sample\(count == 1 ? "" : "s") in \(value(edges[index]))–\(value(edges[index + 1]))</title></rect>\n"
        }
        svg += "<line class=\"axis\" x1=\"\(n(left))\" y1=\"\(n(baseline))\" x2=\"\(n(left + plotWidth))\" y2=\"\(n(baseline))\"/>\n"
        svg += "<text class=\"tick\" x=\"\(n(left - 4))\" y=\"\(n(top + 9))\" text-anchor=\"end\">\(tallest)</text>\n"
        for tick in ticks(low: low, high: high, unit: measurement.unit, plotWidth: plotWidth) {
            let tx = x(tick.value)
            svg += "<line class=\"axis\" x1=\"\(n(tx))\" y1=\"\(n(baseline))\" x2=\"\(n(tx))\" y2=\"\(n(baseline + 3))\"/>"
            svg += "<text class=\"tick\" x=\"\(n(centre(tx, tick.text)))\" y=\"\(n(baseline + 15))\" text-anchor=\"middle\">\(XMLEscaping.text(tick.text))</text>\n"
        }
        if !measurement.unit.isEmpty {
            svg += "<text class=\"tick unit\" x=\"\(n(left + plotWidth / 2))\" y=\"\(n(baseline + 30))\" text-anchor=\"middle\">\(XMLEscaping.text(measurement.unit))</text>\n"
        }
        for marker in markers {
            let mx = n(x(marker.value))
            svg += "<line class=\"\(marker.cls)\" x1=\"\(mx)\" y1=\"\(n(top))\" x2=\"\(mx)\" y2=\"\(n(baseline))\"><title>\(marker.name) \(value(marker.value))</title></line>\n"
        }
        for (label, place) in zip(labels, placed) {
            let title = label.markers.map { "\($0.name) \(value($0.value))" }.joined(separator: ", ")
            let ly = top - 6 - Double(place.row) * rowHeight
            svg += "<text class=\"pname\(label.cls == "budget" ? " bname" : "")\" x=\"\(n(place.x))\" y=\"\(n(ly))\" text-anchor=\"middle\">"
            svg += "\(label.text)<title>\(title)</title></text>\n"
        }
        svg += "</svg>"
        return svg
    }

    /// A percentile or the budget: a dashed line at its value.
    struct Marker {
        var name: String
        var value: Double
        var cls: String
    }

    /// The name over one or more markers, wanted at `x`.
    struct Label {
        var text: String
        var x: Double
        var cls: String
        var markers: [Marker]
    }

    /// One label for markers of a kind drawn on (almost) the same spot — `p50/p95/p99` when the
    /// percentiles coincide — so the names read side by side instead of in a tower.
    static func group(_ markers: [Marker], x: (Double) -> Double) -> [Label] {
        var groups: [Label] = []
        for marker in markers.sorted(by: { x($0.value) < x($1.value) }) {
            if let last = groups.last, last.cls == marker.cls, let previous = last.markers.last, x(marker.value) - x(previous.value) < 3 {
                let members = last.markers + [marker]
                groups[groups.count - 1] = Label(text: members.map(\.name).joined(separator: "/"),
                                                 x: members.map { x($0.value) }.reduce(0, +) / Double(members.count), cls: marker.cls, markers: members)
            } else {
                groups.append(Label(text: marker.name, x: x(marker.value), cls: marker.cls, markers: [marker]))
            }
        }
        return groups
    }

    /// Label centres (kept inside the figure) and rows for labels wanted at `x`: each goes into the lowest
    /// row where it clears the labels already there.
    static func stack(_ labels: [(x: Double, text: String)]) -> [(x: Double, row: Int)] {
        var rowEnds: [[ClosedRange<Double>]] = []
        var placed = Array(repeating: (x: 0.0, row: 0), count: labels.count)
        for index in labels.indices.sorted(by: { labels[$0].x < labels[$1].x }) {
            let middle = centre(labels[index].x, labels[index].text)
            let half = labelWidth(labels[index].text) / 2
            let span = (middle - half - labelGap / 2)...(middle + half + labelGap / 2)
            let row = rowEnds.firstIndex { row in row.allSatisfy { !$0.overlaps(span) } } ?? rowEnds.count
            if row == rowEnds.count { rowEnds.append([]) }
            rowEnds[row].append(span)
            placed[index] = (middle, row)
        }
        return placed
    }

    /// Round ticks inside [low, high], as many as fit their labels: the step grows (1, 2, 5 × 10ⁿ) until
    /// neighbouring labels clear each other. Fewer than two round ticks: the two ends (one when they read alike).
    static func ticks(low: Double, high: Double, unit: String, plotWidth: Double) -> [(value: Double, text: String)] {
        let span = high - low
        guard span > 0, span.isFinite else { return [(low, MeasuredValue(low, unit: unit).number)] }
        var step = AxisSteps.roundStep(atLeast: Swift.max(span / 6, MeasuredValue.resolution(of: unit) ?? 0))
        // A span too small for a Double's steps (a denormal one) ends in the two ends.
        while step.isFinite, step > 0 {
            // Ends a rounding error away from a tick (500 as 499.99999) keep it.
            let first = (low / step - 1e-9).rounded(.up), last = (high / step + 1e-9).rounded(.down)
            guard last - first < 100 else { step = AxisSteps.next(after: step); continue }
            let values = stride(from: first, through: last, by: 1).map { $0 * step }
            let labelled = values.map { ($0, MeasuredValue($0, unit: unit).tickNumber(step: step)) }
            let widest = labelled.map { labelWidth($0.1) }.max() ?? 0
            if labelled.count >= 2, step / span * plotWidth >= widest + labelGap * 2 { return labelled }
            if labelled.count < 2 { break }
            step = AxisSteps.next(after: step)
        }
        let ends = [(low, MeasuredValue(low, unit: unit).number), (high, MeasuredValue(high, unit: unit).number)]
        return ends[0].1 == ends[1].1 ? [ends[0]] : ends
    }

    /// The centre of a label wanted at `x`, moved inside the figure.
    static func centre(_ x: Double, _ text: String) -> Double {
        let half = labelWidth(text) / 2
        return Swift.min(Swift.max(x, half + 2), width - half - 2)
    }

    static func labelWidth(_ text: String) -> Double { Double(text.count) * charWidth }

    static func n(_ value: Double) -> String { ReportNumber.text(value, digits: 1) }
}
