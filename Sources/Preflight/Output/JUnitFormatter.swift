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
                body += "\n      <failure type=\"\(rule.severity.rawValue)\" message=\"\(escape(failing[0].message, attribute: true))\">\(escape(text))</failure>"
            }
            let others = findings.filter { finding in !failing.contains(finding) }
            if !others.isEmpty {
                let text = others.map { "\($0.severity.rawValue): \($0.location): \($0.message)" }.joined(separator: "\n")
                body += "\n      <system-out>\(escape(text))</system-out>"
            }
            let open = "    <testcase classname=\"\(escape(suite, attribute: true))\" name=\"\(escape(rule.id + " " + rule.name, attribute: true))\" time=\"0\""
            cases.append(body.isEmpty ? open + "/>" : open + ">" + body + "\n    </testcase>")
        }
        let count = report.rulesChecked.count
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites name=\"\(PreflightTool.name)\" tests=\"\(count)\" failures=\"\(failures)\" errors=\"0\">",
            "  <testsuite name=\"\(suite)\" tests=\"\(count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\">",
        ]
        lines.append("    <properties>")
        lines.append("      <property name=\"file\" value=\"\(escape(report.location.description, attribute: true))\"/>")
        for (index, note) in report.notes.enumerated() {
            lines.append("      <property name=\"note.\(index + 1)\" value=\"\(escape(note, attribute: true))\"/>")
        }
        lines.append("    </properties>")
        lines.append(contentsOf: cases)
        lines.append("  </testsuite>")
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Escapes text for XML content (or, with `attribute`, a quoted attribute value, newlines kept as `&#10;`);
    /// drops characters XML 1.0 forbids.
    static func escape(_ text: String, attribute: Bool = false) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += attribute ? "&#10;" : "\n"
            case "\t", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
