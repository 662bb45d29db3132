import Foundation
import Support

/// history.html: the `RunHistory` of `hil report --history` as one self-contained page like report.html —
/// inline CSS and SVG, no script, no external resource (the same Content-Security-Policy forbids any),
/// every string from a run or a record escaped, and well-formed as XML too (void elements are closed).
/// Flaky tests come first with why, then each failing test with the run and commit where it started
/// failing, the runs × tests matrix of pass rates, the p95 trend lines of connect and discovery and of each
/// transition's energy (charge and average current), the p95 of every other measurement per run, and the runs — within `HistoryLimits` (`HistoryPage`): the latest runs and
/// the first tests, saying what is left out.
public enum HistoryHTML {
    public static func render(_ history: RunHistory, limits: HistoryLimits = .standard) -> String {
        let page = HistoryPage(history, limits: limits)
        let runs = history.runs
        let span = [runs.first, runs.last].compactMap { $0.map { ISO8601.string($0.started) } }
        var html = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8"/>
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title>hil history · \(runs.count) run\(runs.count == 1 ? "" : "s")</title>
        <style>\(HistoryStyle.css)</style>
        </head>
        <body>
        <header>
        <h1>hil history: \(runs.count) run\(runs.count == 1 ? "" : "s")</h1>

        """
        var facts = ["\(history.tests.count) test\(history.tests.count == 1 ? "" : "s")",
                     "\(history.flakyTests.count) flaky", "\(history.failingTests.count) failing"]
        if let first = span.first, let last = span.last { facts.append("\(XMLEscaping.text(first)) to \(XMLEscaping.text(last))") }
        html += "<p class=\"context\">\(facts.joined(separator: " · "))</p>\n"
        if let leftOut = page.leftOut { html += "<p class=\"left-out\">\(XMLEscaping.text(leftOut))</p>\n" }
        html += "</header>\n"
        html += flakySection(page)
        html += failingSection(page)
        html += HistoryMatrixHTML.render(page)
        html += trendSection(page)
        html += energySection(page)
        html += otherMeasurementsSection(page)
        html += runsSection(page)
        html += "<footer>Written by hil report --history at \(XMLEscaping.text(ISO8601.string(Date()))).</footer>\n"
        html += "</body>\n</html>\n"
        return html
    }

    static func flakySection(_ page: HistoryPage) -> String {
        var html = "<section id=\"flaky\"><h2>Flaky tests</h2>\n"
        let flaky = page.flaky
        guard !flaky.isEmpty else { return html + "<p class=\"none\">No test both passed and failed on one commit.</p>\n</section>\n" }
        html += "<ul class=\"flaky\">\n"
        for test in flaky {
            html += "<li><span class=\"name\">\(testName(test.displayName))</span>: "
            html += page.list(test.flips.map { flip in
                "on commit <code>\(XMLEscaping.text(String(flip.commit.prefix(12))))</code> passed in \(runList(flip.passedRuns, page)) and failed in \(runList(flip.failedRuns, page))"
            }, separator: "; ")
            html += "</li>\n"
        }
        return html + "</ul>\n</section>\n"
    }

    static func failingSection(_ page: HistoryPage) -> String {
        let history = page.history
        var html = "<section id=\"failing\"><h2>Failing tests</h2>\n"
        let failing = page.failing
        guard !failing.isEmpty else { return html + "<p class=\"none\">No test failed in its latest run that passed or failed.</p>\n</section>\n" }
        html += "<table class=\"failing\">\n<thead><tr><th>test</th><th>failing since</th><th>commit</th><th>started</th></tr></thead>\n<tbody>\n"
        for test in failing {
            guard let index = test.firstFailingRun, history.runs.indices.contains(index) else { continue }
            let run = history.runs[index]
            html += "<tr><td class=\"name\">\(testName(test.displayName))</td>"
            html += "<td>run #\(index + 1) <span class=\"dir\">\(XMLEscaping.text(run.directory))</span></td>"
            html += "<td>\(commitCode(run.commit))</td><td class=\"nowrap\">\(XMLEscaping.text(ISO8601.string(run.started)))</td></tr>\n"
        }
        return html + "</tbody></table>\n</section>\n"
    }

    static func trendSection(_ page: HistoryPage) -> String {
        var html = "<section id=\"trends\"><h2>Connect and discovery p95 per run</h2>\n"
        for name in MeasurementSeries.trended {
            let series = page.history.measurements.filter { $0.name == name }
            if series.isEmpty { html += "<p class=\"none\">No run measured \(XMLEscaping.text(name)).</p>\n" }
            for one in series {
                guard let svg = TrendSVG.render(page.shown(one), runs: page.runs) else { continue }
                html += "<figure class=\"trend\"><figcaption>\(XMLEscaping.text(one.name)) p95 (\(XMLEscaping.text(one.unit)))</figcaption>\(svg)</figure>\n"
            }
        }
        return html + "</section>\n"
    }

    /// Each transition's charge and average current, p95 per run, as trend lines like connect time's.
    static func energySection(_ page: HistoryPage) -> String {
        guard !page.energy.isEmpty else { return "" }
        var html = "<section id=\"energy\"><h2>Energy per transition: p95 per run</h2>\n"
        for series in page.energy {
            guard let svg = TrendSVG.render(page.shown(series), runs: page.runs) else { continue }
            let name = series.name.dropFirst(MeasurementSeries.energyPrefix.count)
            html += "<figure class=\"trend\"><figcaption>\(XMLEscaping.text(String(name))) p95 (\(XMLEscaping.text(series.unit)))</figcaption>\(svg)</figure>\n"
        }
        return html + "</section>\n"
    }

    static func otherMeasurementsSection(_ page: HistoryPage) -> String {
        let others = page.otherMeasurements
        guard !others.isEmpty else { return "" }
        var html = "<section id=\"measurements\"><h2>Other measurements: p95 per run</h2>\n<div class=\"scroll\"><table class=\"measurements\">\n"
        html += "<thead><tr><th>measurement</th>" + page.runs.map { "<th class=\"num\">#\($0.index + 1)</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        for series in others {
            html += "<tr><td class=\"name\">\(XMLEscaping.text(series.name)) (\(XMLEscaping.text(series.unit)))</td>"
            for point in page.shown(series).points {
                html += "<td class=\"num\">\(point.map { XMLEscaping.text(ReportNumber.text($0.p95, digits: 4)) } ?? "")</td>"
            }
            html += "</tr>\n"
        }
        return html + "</tbody></table></div>\n</section>\n"
    }

    static func runsSection(_ page: HistoryPage) -> String {
        var html = "<section id=\"runs\"><h2>Runs</h2>\n<table class=\"runs\">\n"
        html += "<thead><tr><th>run</th><th>started</th><th>directory</th><th>commit</th><th>rig</th><th>host</th><th>cases</th><th>outcome</th></tr></thead>\n<tbody>\n"
        for run in page.runs {
            let outcome = run.summary.outcome
            html += "<tr><td>#\(run.index + 1)</td><td class=\"nowrap\">\(XMLEscaping.text(ISO8601.string(run.started)))</td>"
            html += "<td class=\"dir\">\(XMLEscaping.text(run.directory))</td><td>\(commitCode(run.commit))</td>"
            html += "<td>\(XMLEscaping.text(run.rig ?? ""))</td><td>\(XMLEscaping.text(run.host))</td>"
            html += "<td>\(XMLEscaping.text(run.summary.counts))</td>"
            html += "<td class=\"outcome-\(HistoryJSON.outcomeName(outcome))\">\(XMLEscaping.text(outcome.description)) (exit \(run.summary.exitStatus))</td></tr>\n"
        }
        return html + "</tbody></table>\n</section>\n"
    }

    /// A test's display name, escaped, with a line-break opportunity after each `/`, so that a long
    /// `Suite/test` wraps between its parts rather than anywhere.
    static func testName(_ name: String) -> String {
        XMLEscaping.text(name).replacingOccurrences(of: "/", with: "/<wbr/>")
    }

    /// "run #2", "runs #1, #3", "runs #1, #3, … and 12 more" (at most `HistoryLimits.pageListItems`).
    static func runList(_ indices: [Int], _ page: HistoryPage) -> String {
        (indices.count == 1 ? "run " : "runs ") + page.list(indices.map { "#\($0 + 1)" })
    }

    static func commitCode(_ commit: String?) -> String {
        guard let commit else { return "<span class=\"none\">unknown</span>" }
        return "<code title=\"\(XMLEscaping.text(commit))\">\(XMLEscaping.text(String(commit.prefix(12))))</code>"
    }
}
