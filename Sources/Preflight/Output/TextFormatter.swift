/// Plain-text output: findings grouped by severity, each with rule ID, location, help and source.
enum TextFormatter {
    static func render(_ report: Report, strict: Bool) -> String {
        var lines: [String] = ["\(report.platform.displayName) preflight of \(report.location)"]
        for note in report.notes { lines.append("  note: \(note)") }
        for severity in Severity.allCases {
            let findings = report.findings(severity)
            guard !findings.isEmpty else { continue }
            let heading: String
            switch severity {
            case .error: heading = "Errors"
            case .warning: heading = "Warnings"
            case .info: heading = "Info"
            }
            lines.append("")
            lines.append("\(heading) (\(findings.count))")
            for finding in findings {
                lines.append("  \(finding.location): \(severity.rawValue) \(finding.rule.id) \(finding.rule.name)")
                lines.append("    \(finding.message)")
                if finding.message != finding.rule.help { lines.append("    why: \(finding.rule.help)") }
                for source in finding.rule.sources { lines.append("    source: \(source.title) <\(source.url)>") }
            }
        }
        lines.append("")
        let verdict = report.fails(strict: strict) ? "FAILED" : "passed"
        lines.append("\(verdict): \(report.countsSummary) (\(report.rulesChecked.count) rules checked\(strict ? ", strict" : ""))")
        return lines.joined(separator: "\n") + "\n"
    }
}
