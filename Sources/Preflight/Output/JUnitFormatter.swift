import Support

/// JUnit XML output: one testsuite, one testcase per rule checked, a `<failure>` for each rule that fails.
///
/// A rule fails when it has error findings, or warning findings under `--strict` (matching the exit status);
/// other findings are listed in the testcase's `<system-out>`.
enum JUnitFormatter {
    static func render(_ report: Report, strict: Bool) -> String {
        let suite = "preflight.\(report.platform.rawValue)"
        var cases: [String] = []
        var failures = 0
        for rule in report.rulesChecked {
            let findings = report.findings.filter { $0.rule == rule }
            let failing = findings.filter { $0.severity == .error || (strict && $0.severity == .warning) }
            var body = ""
            if !failing.isEmpty {
                failures += 1
                let text = failing.map { "\($0.location): \($0.message)" }.joined(separator: "\n")
                    + "\n\n" + rule.help + "\n" + rule.sources.map { "Source: \($0.title) <\($0.url)>" }.joined(separator: "\n")
                body += "\n      <failure type=\"\(rule.severity.rawValue)\" message=\"\(XMLEscaping.attribute(failing[0].message))\">\(XMLEscaping.text(text))</failure>"
            }
            let others = findings.filter { finding in !failing.contains(finding) }
            if !others.isEmpty {
                let text = others.map { "\($0.severity.rawValue): \($0.location): \($0.message)" }.joined(separator: "\n")
                body += "\n      <system-out>\(XMLEscaping.text(text))</system-out>"
            }
            let open = "    <testcase classname=\"\(XMLEscaping.attribute(suite))\" name=\"\(XMLEscaping.attribute(rule.id + " " + rule.name))\" time=\"0\""
            cases.append(body.isEmpty ? open + "/>" : open + ">" + body + "\n    </testcase>")
        }
        let count = report.rulesChecked.count
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites name=\"\(PreflightTool.name)\" tests=\"\(count)\" failures=\"\(failures)\" errors=\"0\">",
            "  <testsuite name=\"\(suite)\" tests=\"\(count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\">",
        ]
        lines.append("    <properties>")
        lines.append("      <property name=\"file\" value=\"\(XMLEscaping.attribute(report.location.description))\"/>")
        for (index, note) in report.notes.enumerated() {
            lines.append("      <property name=\"note.\(index + 1)\" value=\"\(XMLEscaping.attribute(note))\"/>")
        }
        lines.append("    </properties>")
        lines.append(contentsOf: cases)
        lines.append("  </testsuite>")
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }
}
