extension TransitionEnergy {
    /// What the history trends this transition as (`hil report --history`): `energy · lane: label`, the label
    /// without a loop's `cycle N: ` prefix and cut at its first `:` or ` (` (the detail a run adds, such as a
    /// power switch's verification), so the same transition in every run and every cycle is one series.
    public var trendName: String {
        var label = Substring(label)
        if label.hasPrefix("cycle "), let colon = label.firstIndex(of: ":"),
           label[label.index(label.startIndex, offsetBy: 6)..<colon].allSatisfy(\.isNumber) {
            label = label[label.index(after: colon)...].drop { $0 == " " }
        }
        if let cut = label.firstIndex(where: { $0 == ":" }) { label = label[..<cut] }
        if let cut = label.range(of: " (") { label = label[..<cut.lowerBound] }
        return "\(MeasurementSeries.energyPrefix)\(lane.rawValue): \(label)"
    }
}
