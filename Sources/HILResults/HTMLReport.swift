import Foundation
import Support

/// report.html: one self-contained page — inline CSS and SVG, no script, no external resource (a
/// Content-Security-Policy forbids any) — with the run's summary and its failures with their reasons, a
/// row per test case, and per case its message, properties, SVG timeline, measurements with histograms
/// and percentiles, and a link to its capture. Every string from a test, a record or a controller is
/// escaped.
///
/// Made to be read at a glance: cases are listed failures first (`ReportOrder`), the page never scrolls
/// sideways at 1280 CSS px (long names, paths and command lines wrap; the case table gives the message
/// the room; figures shrink to fit), and every number is rounded to what it measures (`MeasuredValue`).
/// scripts/checks/check-report-layout checks this against headless Chromium's layout.
public enum HTMLReport {
    public static func render(_ assembly: Assembly) -> String {
        let summary = assembly.summary
        let context = assembly.context
        var html = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>hil run · \(XMLEscaping.text(context.rigName ?? "results")) · \(XMLEscaping.text(summary.outcome.description))</title>
        <style>\(css)</style>
        </head>
        <body>

        """
        html += "<header class=\"outcome-\(outcomeClass(summary.outcome))\">\n"
        html += "<h1>hil run: \(XMLEscaping.text(summary.outcome.description)) <span class=\"exit\">exit \(summary.exitStatus)</span></h1>\n"
        html += "<p class=\"context\">"
        var facts: [String] = []
        if let rig = context.rigName { facts.append("rig <b>\(XMLEscaping.text(rig))</b>") }
        facts.append("host <b>\(XMLEscaping.text(context.host))</b>")
        if let commit = context.gitCommit { facts.append("commit <code>\(XMLEscaping.text(String(commit.prefix(12))))</code>") }
        facts.append("started \(XMLEscaping.text(ISO8601.string(context.started)))")
        facts.append("\(XMLEscaping.text(MeasuredValue.duration(summary.duration)))")
        html += facts.joined(separator: " · ") + "</p>\n"
        if let command = context.command { html += "<p class=\"command\"><code>\(XMLEscaping.text(command))</code></p>\n" }
        html += "</header>\n"
        if !assembly.isComplete {
            html += "<p class=\"banner\">This run has not finished or was cut off: the cases below are the ones that finished.</p>\n"
        }

        html += "<section><h2>Summary</h2>\n<table class=\"counts\"><tr>"
        for (label, count, cls) in [("passed", summary.passed, "passed"), ("failed", summary.failed, "failed"),
                                    ("infrastructure errors", summary.infrastructureErrors, "infrastructureError"),
                                    ("skipped", summary.skipped, "skipped"), ("total", summary.total, "total")] {
            html += "<td class=\"\(cls)\"><span class=\"count\">\(count)</span><br>\(label)</td>"
        }
        html += "</tr></table>\n"
        if !assembly.allProblems.isEmpty {
            html += "<ul class=\"problems\">\n"
            for problem in assembly.allProblems {
                html += "<li class=\"\(outcomeClass(problem.outcome))\">\(XMLEscaping.text(problem.message))</li>\n"
            }
            html += "</ul>\n"
        }
        let cases = ReportOrder.ordered(assembly.cases)
        html += attention(ReportOrder.needingAttention(assembly.cases), packageRoot: assembly.context.package)
        html += "</section>\n"

        html += "<section><h2>Test cases</h2>\n<table class=\"cases\">\n"
        html += "<colgroup><col class=\"verdict\"><col class=\"name\"><col class=\"time\"><col class=\"message\"><col class=\"capture\"></colgroup>\n"
        html += "<thead><tr><th>verdict</th><th>test case</th><th>time</th><th>message</th><th>capture</th></tr></thead>\n<tbody>\n"
        for (index, result) in cases.enumerated() {
            let record = result.record
            html += "<tr class=\"\(record.verdict.rawValue)\">"
            html += "<td>\(badge(record.verdict))</td>"
            html += "<td><a href=\"#case-\(index + 1)\">\(XMLEscaping.text(result.displayName))</a></td>"
            html += "<td class=\"num\">\(XMLEscaping.text(MeasuredValue.duration(record.duration)))</td>"
            html += "<td class=\"message\">\(XMLEscaping.text(oneLine(result, packageRoot: assembly.context.package)))</td>"
            html += "<td class=\"capture\">\(captureLink(record.capturePath) ?? "")</td>"
            html += "</tr>\n"
        }
        html += "</tbody></table>\n</section>\n"

        html += "<section><h2>Details</h2>\n"
        for (index, result) in cases.enumerated() { html += details(result, index: index + 1, packageRoot: assembly.context.package) }
        html += "</section>\n"

        html += "<section><h2>Run</h2>\n<table class=\"properties\">\n"
        for property in context.junitProperties {
            html += "<tr><th>\(XMLEscaping.text(property.name))</th><td>\(XMLEscaping.text(property.value))</td></tr>\n"
        }
        html += "</table>\n</section>\n"
        html += "<footer>Written by hil at \(XMLEscaping.text(ISO8601.string(Date()))). Captures open in Wireshark.</footer>\n"
        html += "</body>\n</html>\n"
        return html
    }

    static func details(_ result: CaseResult, index: Int, packageRoot: String?) -> String {
        let record = result.record
        var html = "<article id=\"case-\(index)\" class=\"case \(record.verdict.rawValue)\">\n"
        html += "<h3>\(badge(record.verdict)) \(XMLEscaping.text(result.displayName))</h3>\n"
        html += "<p class=\"meta\"><code>\(XMLEscaping.text(record.testID))</code> · \(XMLEscaping.text(MeasuredValue.duration(record.duration)))"
        html += " · started \(XMLEscaping.text(ISO8601.string(record.started))) · from \(XMLEscaping.text(result.source.rawValue))</p>\n"
        if let message = record.message, !message.isEmpty {
            let location = result.failureLocation(packageRoot: packageRoot).map { "\($0): " } ?? ""
            html += "<pre class=\"message\">\(XMLEscaping.text(location + message))</pre>\n"
        }
        if let link = captureLink(record.capturePath) { html += "<p>Capture: \(link)</p>\n" }
        if let svg = TimelineSVG.render(record) {
            html += "<figure class=\"timeline\">\(svg)</figure>\n"
            html += currentPlot(record)
            html += "<details><summary>\(record.timeline.count) timeline event\(record.timeline.count == 1 ? "" : "s")</summary>\n<table class=\"events\">\n"
            html += "<tr><th>offset</th><th>lane</th><th>event</th><th>lasted</th></tr>\n"
            for event in record.timeline.sorted(by: { $0.offset < $1.offset }) {
                html += "<tr class=\"\(event.isFailure ? "failure" : "")\"><td class=\"num\">\(TimelineSVG.seconds(event.offset))</td>"
                html += "<td>\(XMLEscaping.text(event.lane.rawValue))</td><td>\(XMLEscaping.text(event.label))</td>"
                html += "<td class=\"num\">\(event.duration.map(TimelineSVG.seconds) ?? "")</td></tr>\n"
            }
            html += "</table></details>\n"
        }
        if let energy = record.energy, !energy.isEmpty { html += Self.energyTable(energy) }
        if !record.measurements.isEmpty {
            html += "<table class=\"measurements\">\n<tr><th>measurement</th><th>value</th><th>budget</th><th>samples</th><th>p50</th><th>p95</th><th>p99</th></tr>\n"
            for measurement in record.measurements {
                func value(_ number: Double) -> String { XMLEscaping.text(MeasuredValue(number, unit: measurement.unit).text) }
                let over = measurement.budget.map { measurement.value > $0 } ?? false
                html += "<tr class=\"\(over ? "over" : "")\"><td>\(XMLEscaping.text(measurement.name))</td><td class=\"num\">\(value(measurement.value))</td>"
                html += "<td class=\"num\">\(measurement.budget.map(value) ?? "")</td>"
                if let samples = measurement.samples, !samples.isEmpty {
                    let p = SampleStatistics.percentiles(samples)
                    html += "<td class=\"num\">\(samples.count)</td>"
                    for percentile in [p.p50, p.p95, p.p99] { html += "<td class=\"num\">\(value(percentile))</td>" }
                } else {
                    html += "<td></td><td></td><td></td><td></td>"
                }
                html += "</tr>\n"
            }
            html += "</table>\n"
            let histograms = record.measurements.compactMap { measurement in
                HistogramSVG.render(measurement).map { "<figure class=\"histogram\"><figcaption>\(XMLEscaping.text(measurement.name))</figcaption>\($0)</figure>\n" }
            }
            if !histograms.isEmpty { html += "<div class=\"histograms\">\n\(histograms.joined())</div>\n" }
        }
        var properties: [(String, String)] = []
        if let accessory = record.accessory { properties.append(("accessory", accessory)) }
        for (position, argument) in record.arguments.enumerated() { properties.append(("argument \(position + 1)", argument)) }
        for key in record.properties.keys.sorted() { properties.append((key, record.properties[key] ?? "")) }
        if !properties.isEmpty {
            html += "<table class=\"properties\">\n"
            for (name, value) in properties { html += "<tr><th>\(XMLEscaping.text(name))</th><td>\(XMLEscaping.text(value))</td></tr>\n" }
            html += "</table>\n"
        }
        let known = result.issues.filter(\.isKnown)
        if !known.isEmpty {
            html += "<ul class=\"known\">\n"
            for issue in known { html += "<li>known issue: \(XMLEscaping.text((issue.sourceLocation.map { "\($0): " } ?? "") + issue.summary))</li>\n" }
            html += "</ul>\n"
        }
        if !result.attachments.isEmpty {
            html += "<p>Attachments: \(result.attachments.map(attachmentLink).joined(separator: ", "))</p>\n"
        }
        html += "</article>\n"
        return html
    }

    /// The failures and infrastructure errors with their reasons, each linked to its details (which
    /// come first in the same order, so the n-th is `#case-n`); nothing when every case passed or skipped.
    static func attention(_ cases: [CaseResult], packageRoot: String?) -> String {
        guard !cases.isEmpty else { return "" }
        var html = "<ol class=\"attention\">\n"
        for (index, result) in cases.enumerated() {
            html += "<li class=\"\(result.verdict.rawValue)\">\(badge(result.verdict)) <a href=\"#case-\(index + 1)\">\(XMLEscaping.text(result.displayName))</a>"
            let reason = oneLine(result, packageRoot: packageRoot)
            if !reason.isEmpty { html += "<br><span class=\"reason\">\(XMLEscaping.text(reason))</span>" }
            html += "</li>\n"
        }
        return html + "</ol>\n"
    }

    /// The plot of a case's supply current under its timeline, with a link to the trace's CSV; empty without a trace.
    static func currentPlot(_ record: TestRecord) -> String {
        guard let svg = CurrentPlotSVG.render(record) else { return "" }
        let file = record.trace?.path.flatMap { path in captureLink(path).map { " · trace: \($0)" } } ?? ""
        return "<figure class=\"current\">\(svg)<figcaption>supply current on the timeline's axis\(file)</figcaption></figure>\n"
    }

    /// A link to a capture, for a relative path inside the results directory only (no scheme, no `..`,
    /// not absolute); anything else is shown as text.
    static func captureLink(_ path: String?) -> String? {
        guard let path, !path.isEmpty else { return nil }
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        let safe = !path.hasPrefix("/") && !path.contains(":") && !path.contains("\\") && !components.contains("..") && !components.contains("")
        guard safe else { return "<code>\(XMLEscaping.text(path))</code>" }
        let encoded = components.map { String($0).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#;"))) ?? "" }
            .joined(separator: "/")
        let name = String(components.last ?? Substring(path))
        return "<a href=\"\(XMLEscaping.text(encoded))\">\(XMLEscaping.text(name))</a>"
    }

    /// An attachment Swift Testing wrote into the results' `attachments/` is linked; anything else is text.
    static func attachmentLink(_ path: String) -> String {
        let url = URL(fileURLWithPath: path)
        guard url.deletingLastPathComponent().lastPathComponent == "attachments", let link = captureLink("attachments/\(url.lastPathComponent)") else {
            return XMLEscaping.text(url.lastPathComponent)
        }
        return link
    }

    static func badge(_ verdict: TestRecord.Verdict) -> String {
        let text: String
        switch verdict {
        case .passed: text = "passed"
        case .failed: text = "failed"
        case .infrastructureError: text = "infrastructure"
        case .skipped: text = "skipped"
        }
        return "<span class=\"badge \(verdict.rawValue)\">\(text)</span>"
    }

    /// The first line of the case's message, after where it failed (relative to the package).
    static func oneLine(_ result: CaseResult, packageRoot: String?) -> String {
        guard let message = result.record.message, !message.isEmpty else { return "" }
        let first = JUnitReport.firstLine(message)
        let located = result.failureLocation(packageRoot: packageRoot).map { "\($0): \(first)" } ?? first
        return located.count > 320 ? String(located.prefix(319)) + "…" : located
    }

    static func outcomeClass(_ outcome: RunOutcome) -> String {
        switch outcome {
        case .passed: return "passed"
        case .productFailure: return "failed"
        case .infrastructureError, .usageError, .interrupted: return "infrastructureError"
        }
    }

    /// The page's style. Nothing may widen the page past the viewport: long tokens (capture paths, test
    /// IDs, addresses, command lines) break anywhere, the case table has fixed columns with the rest for the
    /// message, and figures shrink to the page's width.
    static let css = """
    body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1240px;padding:0 16px 40px;color:#1d1d1f;background:#fff}
    h1,h2,h3,p,li,td,th,pre,code,a,figcaption,summary{overflow-wrap:anywhere}
    header{border-bottom:4px solid #999;margin-bottom:12px}header.outcome-passed{border-color:#2e7d32}header.outcome-failed{border-color:#c62828}header.outcome-infrastructureError{border-color:#e65100}
    h1{font-size:22px;margin:16px 0 4px}h2{font-size:17px;margin:24px 0 8px}h3{font-size:15px;margin:0 0 4px}.exit{font-size:13px;color:#666;font-weight:normal}
    .context,.command,.meta{color:#555;margin:2px 0}.banner{background:#fff3e0;border:1px solid #e65100;padding:8px;border-radius:4px}
    table{border-collapse:collapse}td,th{padding:3px 8px;text-align:left;vertical-align:top}th{font-weight:600}
    table.cases{width:100%;table-layout:fixed}table.cases tr:nth-child(even){background:#f6f6f8}col.verdict{width:8.5em}col.name{width:26%}col.time{width:6.5em}col.capture{width:16%}td.capture{font-size:12px}
    td.num{text-align:right;white-space:nowrap}td.message,.reason{font-family:ui-monospace,Menlo,monospace;font-size:12px}
    ol.attention{padding-left:24px;margin:12px 0}ol.attention li{margin:4px 0}ol.attention li.failed .reason{color:#b71c1c}ol.attention li.infrastructureError .reason{color:#bf360c}
    table.counts td{text-align:center;padding:8px 18px;border:1px solid #ddd}.count{font-size:22px;font-weight:700}
    td.passed .count{color:#2e7d32}td.failed .count{color:#c62828}td.infrastructureError .count{color:#e65100}td.skipped .count{color:#777}
    .badge{display:inline-block;padding:0 6px;border-radius:3px;font-size:12px;color:#fff;background:#777;white-space:nowrap}.badge.passed{background:#2e7d32}.badge.failed{background:#c62828}.badge.infrastructureError{background:#e65100}
    article.case{border:1px solid #ddd;border-left:5px solid #999;border-radius:4px;padding:10px 12px;margin:12px 0}article.passed{border-left-color:#2e7d32}article.failed{border-left-color:#c62828}article.infrastructureError{border-left-color:#e65100}
    pre.message{background:#fbeaea;padding:8px;white-space:pre-wrap;margin:6px 0}article.infrastructureError pre.message{background:#fff3e0}article.skipped pre.message{background:#f3f3f3}
    figure{margin:8px 0}figcaption{font-size:13px;color:#444}svg{max-width:100%;height:auto}.histograms{display:flex;flex-wrap:wrap;gap:4px 28px}
    svg text{font:11px system-ui,sans-serif;fill:#333}svg .tick{fill:#666}svg .grid{stroke:#e6e6e6}svg .end{stroke:#999;stroke-dasharray:3 3}
    svg .band{fill:#f7f7f9}svg .event{fill:#1565c0}svg .lane-power .event{fill:#6a1b9a}svg .lane-advertising .event{fill:#00838f}svg .lane-connection .event{fill:#1565c0}
    svg .lane-discovery .event{fill:#2e7d32}svg .lane-adapter .event{fill:#5d4037}svg .lane-recovery .event{fill:#ef6c00}svg .lane-update .event{fill:#00838f}svg .lane-note .event{fill:#757575}
    svg .event.failure,svg .lane-power .event.failure,svg .lane-connection .event.failure{fill:#d32f2f}svg .label.on-bar{fill:#fff}svg .failure-label{fill:#d32f2f;font-weight:600}
    svg .trace{fill:none;stroke:#ef6c00;stroke-width:1.2}
    svg .bar{fill:#5c6bc0}svg .bar.over{fill:#e57373}svg .axis{stroke:#999}svg .percentile{stroke:#333;stroke-dasharray:2 2}svg .budget{stroke:#d32f2f;stroke-width:2;stroke-dasharray:6 3}svg .pname{fill:#333}svg .bname{fill:#d32f2f}
    table.measurements tr.over td{color:#c62828}table.events{width:100%}table.events tr.failure td{color:#d32f2f;font-weight:600}
    table.properties{width:100%;table-layout:fixed}table.properties th{width:15em;color:#555;font-weight:500}
    ul.problems li.infrastructureError{color:#e65100}ul.problems li.failed{color:#c62828}footer{margin-top:30px;color:#888;font-size:12px}
    """
}
