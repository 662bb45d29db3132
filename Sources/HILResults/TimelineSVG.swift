import Foundation
import Support

/// The SVG timeline of one test case: a row per lane (power, advertising, connection, discovery, adapter,
/// recovery, update, note — those with events), every event on one time axis in seconds from the case's start;
/// spans as bars, instants as ticks, failures in red. Each mark has a `<title>` (the browser's tooltip).
enum TimelineSVG {
    static let width = 880.0
    static let gutter = 96.0
    static let rightPad = 16.0
    static let axisHeight = 26.0
    static let laneHeight = 28.0
    /// Average width of a label character at 11 px.
    static let charWidth = 6.2

    /// The record as drawn: values from a record file are untrusted, so an offset of NaN or 1e308 is left out
    /// of the drawing (the event table below the timeline still lists it).
    static func drawable(_ input: TestRecord) -> TestRecord {
        var record = input
        record.timeline = input.timeline.filter { $0.offset.isFinite && abs($0.offset) < 1e7 }.map { event in
            var event = event
            event.offset = Swift.max(0, event.offset)
            if let duration = event.duration, !(duration.isFinite && duration >= 0 && duration < 1e7) { event.duration = nil }
            return event
        }
        if !(record.duration.isFinite && record.duration >= 0 && record.duration < 1e7) { record.duration = 0 }
        return record
    }

    /// The time axis of a drawable record: its ticks and the time at the plot's right edge. The current plot
    /// below the timeline uses the same axis, so the two line up.
    static func axis(_ record: TestRecord) -> (ticks: [Double], scaleEnd: Double) {
        let end = record.timeline.map { $0.offset + ($0.duration ?? 0) }.max() ?? 0
        let span = Swift.max(end, record.duration, 0.001)
        let ticks = axisTicks(upTo: span)
        return (ticks, Swift.max(span, ticks.last ?? span))
    }

    static func render(_ input: TestRecord) -> String? {
        let record = drawable(input)
        guard !record.timeline.isEmpty else { return nil }
        let lanes = TimelineEvent.Lane.allCases.filter { lane in record.timeline.contains { $0.lane == lane } }
        let (ticks, scaleEnd) = axis(record)
        let plot = width - gutter - rightPad
        func x(_ t: Double) -> Double { gutter + Swift.max(0, Swift.min(t, scaleEnd)) / scaleEnd * plot }
        let height = axisHeight + Double(lanes.count) * laneHeight + 8

        var svg = "<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\""
        svg += " viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"timeline\">\n"
        // Axis and grid.
        let step = ticks.count > 1 ? ticks[1] - ticks[0] : scaleEnd
        for tick in ticks {
            let tx = n(x(tick))
            svg += "<line class=\"grid\" x1=\"\(tx)\" y1=\"\(n(axisHeight - 6))\" x2=\"\(tx)\" y2=\"\(n(height - 8))\"/>"
            svg += "<text class=\"tick\" x=\"\(tx)\" y=\"\(n(axisHeight - 10))\" text-anchor=\"middle\">\(MeasuredValue(tick, unit: "s").tick(step: step))</text>\n"
        }
        if record.duration > 0 {
            let ex = n(x(record.duration))
            svg += "<line class=\"end\" x1=\"\(ex)\" y1=\"\(n(axisHeight - 6))\" x2=\"\(ex)\" y2=\"\(n(height - 8))\"><title>end of the case, \(seconds(record.duration))</title></line>\n"
        }
        for (row, lane) in lanes.enumerated() {
            let top = axisHeight + Double(row) * laneHeight
            let middle = top + laneHeight / 2
            svg += "<g class=\"lane lane-\(lane.rawValue)\" data-lane=\"\(lane.rawValue)\">"
            svg += "<rect class=\"band\" x=\"\(n(gutter))\" y=\"\(n(top + 2))\" width=\"\(n(plot))\" height=\"\(n(laneHeight - 4))\"/>"
            svg += "<text class=\"lane-name\" x=\"\(n(gutter - 8))\" y=\"\(n(middle + 4))\" text-anchor=\"end\">\(lane.rawValue)</text>\n"
            let events = record.timeline.filter { $0.lane == lane }.sorted { $0.offset < $1.offset }
            var labelEnd = gutter
            for (index, event) in events.enumerated() {
                let cls = event.isFailure ? "event failure" : "event"
                let title = "<title>\(seconds(event.offset))\(event.duration.map { " +\(seconds($0))" } ?? ""): \(XMLEscaping.text(event.label))</title>"
                let startX = x(event.offset)
                // A label may run up to the next mark of the lane (or the plot's end).
                let nextX = index + 1 < events.count ? x(events[index + 1].offset) : width - rightPad
                if let duration = event.duration, duration > 0 {
                    let barWidth = Swift.max(2, x(event.offset + duration) - startX)
                    svg += "<rect class=\"\(cls) span\" x=\"\(n(startX))\" y=\"\(n(top + 6))\" width=\"\(n(barWidth))\" height=\"\(n(laneHeight - 12))\" rx=\"2\">\(title)</rect>"
                    let fits = Int((Swift.min(barWidth, nextX - startX) - 6) / charWidth)
                    if fits >= 4 {
                        svg += "<text class=\"label on-bar\" x=\"\(n(startX + 3))\" y=\"\(n(middle + 4))\">\(XMLEscaping.text(clip(event.label, fits)))</text>"
                    }
                    labelEnd = Swift.max(labelEnd, startX + barWidth)
                } else {
                    svg += "<path class=\"\(cls) instant\" d=\"M\(n(startX)) \(n(top + 5)) l5 9 l-5 9 l-5 -9 z\">\(title)</path>"
                    let labelClass = event.isFailure ? "label failure-label" : "label"
                    let right = Int((nextX - startX - 12) / charWidth)
                    let left = Int((startX - 8 - Swift.max(labelEnd, gutter) - 4) / charWidth)
                    if right >= 8 || (right >= 4 && right >= left) {
                        let text = clip(event.label, Swift.min(right, 40))
                        svg += "<text class=\"\(labelClass)\" x=\"\(n(startX + 8))\" y=\"\(n(middle + 4))\">\(XMLEscaping.text(text))</text>"
                        labelEnd = startX + 8 + Double(text.count) * charWidth
                    } else if left >= 4 {
                        // No room after the mark (the end of the axis, a span right behind it): before it.
                        let text = clip(event.label, Swift.min(left, 40))
                        svg += "<text class=\"\(labelClass)\" x=\"\(n(startX - 8))\" y=\"\(n(middle + 4))\" text-anchor=\"end\">\(XMLEscaping.text(text))</text>"
                        labelEnd = startX
                    } else {
                        labelEnd = Swift.max(labelEnd, startX + 6)
                    }
                }
                svg += "\n"
            }
            svg += "</g>\n"
        }
        svg += "</svg>"
        return svg
    }

    /// 0 and round steps (1, 2, 5 × 10ⁿ) to at least `span`, at most ~10 of them.
    static func axisTicks(upTo span: Double) -> [Double] {
        let step = AxisSteps.roundStep(atLeast: span / 8)
        var ticks: [Double] = []
        var t = 0.0
        while t < span + step * 0.999 && ticks.count < 12 {
            ticks.append(t)
            t += step
        }
        return ticks
    }

    static func clip(_ text: String, _ count: Int) -> String {
        text.count <= count ? text : String(text.prefix(Swift.max(1, count - 1))) + "…"
    }

    /// A time on the timeline, rounded by `MeasuredValue`'s rule.
    static func seconds(_ value: Double) -> String { MeasuredValue(value, unit: "s").text }

    /// An SVG coordinate with one decimal.
    static func n(_ value: Double) -> String { ReportNumber.text(value, digits: 1) }
}
