import Support
extension HTMLReport {
    /// A case's energy per transition: a line each with its span, average current, charge and energy.
    static func energyTable(_ energy: [TransitionEnergy]) -> String {
        var html = "<table class=\"energy\">\n<tr><th>transition</th><th>lasted</th><th>average</th><th>charge</th><th>energy</th></tr>\n"
        for transition in energy.sorted(by: { $0.offset < $1.offset }) {
            html += "<tr><td>\(XMLEscaping.text("\(transition.lane.rawValue): \(transition.label)"))</td>"
            html += "<td class=\"num\">\(TimelineSVG.seconds(transition.duration))</td>"
            html += "<td class=\"num\">\(ReportNumber.text(transition.averageMicroamperes)) µA</td>"
            html += "<td class=\"num\">\(ReportNumber.text(transition.chargeMicrocoulombs)) µC</td>"
            html += "<td class=\"num\">\(ReportNumber.text(transition.energyMicrojoules)) µJ</td></tr>\n"
            if let lost = transition.lostSamples {
                html += "<tr><td colspan=\"5\">\(lost) of its samples lost on the way to the host, each counted as the sample before its gap</td></tr>\n"
            }
        }
        return html + "</table>\n"
    }
}
