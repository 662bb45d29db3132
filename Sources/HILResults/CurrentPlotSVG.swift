import Foundation
import Support

/// The SVG plot of a case's current trace, drawn under its timeline on the same time axis (`TimelineSVG.axis`,
/// the same gutter and width) so a step in current sits under the transition that caused it. The current is
/// on a log scale in decades (1 µA to 100 mA apart by a factor 10⁵: a sleeping accessory and its radio events on
/// one plot), each plot point a step as wide as its bin; a point of no current sits on the bottom line.
enum CurrentPlotSVG {
    static let height = 132.0
    static let top = 8.0
    static let bottomPad = 8.0

    static func render(_ input: TestRecord) -> String? {
        guard let trace = input.trace, trace.plotBinSeconds.isFinite, trace.plotBinSeconds > 0, !trace.plotMicroamperes.isEmpty else { return nil }
        let record = TimelineSVG.drawable(input)
        let (_, scaleEnd) = TimelineSVG.axis(record)
        let currents = trace.plotMicroamperes.map { $0.isFinite ? Swift.max(0, $0) : 0 }
        // The scale ignores the last point: a bin the case's end cut short shows its charge over the full width.
        let positive = (currents.count > 1 ? currents.dropLast() : currents[...]).filter { $0 > 0 }
        guard let highest = positive.max(), let lowest = positive.min() else { return nil }
        let lowDecade = Swift.max(-3, Swift.min(floor(log10(lowest)), 6))
        let highDecade = Swift.max(lowDecade + 1, Swift.min(ceil(log10(highest)), 7))
        let plot = TimelineSVG.width - TimelineSVG.gutter - TimelineSVG.rightPad
        let bottom = height - bottomPad
        func x(_ t: Double) -> Double { TimelineSVG.gutter + Swift.max(0, Swift.min(t, scaleEnd)) / scaleEnd * plot }
        func y(_ microamperes: Double) -> Double {
            guard microamperes > 0 else { return bottom }
            let fraction = (Swift.min(Swift.max(log10(microamperes), lowDecade), highDecade) - lowDecade) / (highDecade - lowDecade)
            return bottom - fraction * (bottom - top)
        }
        let n = TimelineSVG.n
        var svg = "<svg class=\"current\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(TimelineSVG.width))\" height=\"\(Int(height))\""
        svg += " viewBox=\"0 0 \(Int(TimelineSVG.width)) \(Int(height))\" role=\"img\" aria-label=\"supply current\">\n"
        for decade in stride(from: lowDecade, through: highDecade, by: 1) {
            let gy = n(y(pow(10, decade)))
            svg += "<line class=\"grid\" x1=\"\(n(TimelineSVG.gutter))\" y1=\"\(gy)\" x2=\"\(n(TimelineSVG.gutter + plot))\" y2=\"\(gy)\"/>"
            svg += "<text class=\"tick\" x=\"\(n(TimelineSVG.gutter - 8))\" y=\"\(n(y(pow(10, decade)) + 4))\" text-anchor=\"end\">\(XMLEscaping.text(label(decade)))</text>\n"
        }
        var path = ""
        for (index, current) in currents.enumerated() {
            let start = Double(index) * trace.plotBinSeconds
            guard start < scaleEnd else { break }
            let (x0, x1, cy) = (n(x(start)), n(x(start + trace.plotBinSeconds)), n(y(current)))
            path += index == 0 ? "M\(x0) \(cy)" : " L\(x0) \(cy)"
            path += " L\(x1) \(cy)"
        }
        let average = currents.reduce(0, +) / Double(currents.count)
        svg += "<path class=\"trace\" d=\"\(path)\"><title>supply current, \(XMLEscaping.text(ReportNumber.text(average))) µA on average, \(n(trace.plotBinSeconds * 1000)) ms a point</title></path>\n"
        return svg + "</svg>"
    }

    /// 10ⁿ µA as the plot's axis says it: `1 µA`, `100 µA`, `10 mA`, `1 nA`.
    static func label(_ decade: Double) -> String {
        let exponent = Int(decade)
        switch exponent {
        case ..<0: return "\(Int(pow(10, Double(exponent + 3)).rounded())) nA"
        case 0..<3: return "\(Int(pow(10, Double(exponent)).rounded())) µA"
        case 3..<6: return "\(Int(pow(10, Double(exponent - 3)).rounded())) mA"
        default: return "\(Int(pow(10, Double(exponent - 6)).rounded())) A"
        }
    }
}
