import Support
/// history.html's matrix: a row per test the page shows (flaky ones first, then failing ones, then the rest by
/// name), a column per run it shows (oldest first), each cell the test's pass rate in that run as a colour and a number —
/// or `infra` / `skip` when no case passed or failed, empty when the test did not run.
enum HistoryMatrixHTML {
    static func render(_ page: HistoryPage) -> String {
        var html = "<section id=\"matrix\"><h2>Pass rate per test and run</h2>\n<div class=\"scroll\"><table class=\"matrix\">\n<thead><tr><th class=\"name\">test</th>"
        for run in page.runs {
            let title = "run #\(run.index + 1): \(run.directory), \(ISO8601.string(run.started))" + (run.commit.map { ", commit \($0)" } ?? "")
            let monthDay = ISO8601.string(run.started).dropFirst(5).prefix(5)
            html += "<th class=\"run\" title=\"\(XMLEscaping.text(title))\">#\(run.index + 1)<br/>\(XMLEscaping.text(String(monthDay)))"
            html += "<br/><code>\(XMLEscaping.text(String((run.commit ?? "").prefix(7))))</code></th>"
        }
        html += "</tr></thead>\n<tbody>\n"
        for test in page.tests {
            html += "<tr><td class=\"name\">\(HistoryHTML.testName(test.displayName))"
            if test.isFlaky { html += " <span class=\"tag flaky\">flaky</span>" }
            if let first = test.firstFailingRun { html += " <span class=\"tag failing\">failing since #\(first + 1)</span>" }
            html += "</td>"
            for (run, cell) in page.cells(test) { html += self.cell(cell, run: run.index) }
            html += "</tr>\n"
        }
        return html + "</tbody></table></div>\n</section>\n"
    }

    static func cell(_ cell: TestHistory.Cell?, run: Int) -> String {
        guard let cell else { return "<td class=\"cell absent\" title=\"run #\(run + 1): did not run\"></td>" }
        var counts: [String] = []
        for (count, word) in [(cell.passed, "passed"), (cell.failed, "failed"), (cell.infrastructureErrors, "infrastructure error"), (cell.skipped, "skipped")] where count > 0 {
            counts.append("\(count) \(word)\(word == "infrastructure error" && count > 1 ? "s" : "")")
        }
        let title = "run #\(run + 1): \(counts.joined(separator: ", "))"
        let (state, text): (String, String)
        if let rate = cell.passRate {
            state = rate >= 1 ? "pass" : (rate <= 0 ? "fail" : "mixed")
            text = "\(Int((rate * 100).rounded()))%"
        } else {
            (state, text) = cell.infrastructureErrors > 0 ? ("infra", "infra") : ("skip", "skip")
        }
        return "<td class=\"cell \(state)\" title=\"\(title)\">\(text)</td>"
    }
}
