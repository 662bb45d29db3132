#if canImport(FoundationXML)
import FoundationXML
#endif
import Foundation
@testable import HILResults
import Testing
import TestSupport

/// history.html, read by libxml2 in this process (Foundation's XMLDocument): XPath over it finds the matrix,
/// the flaky and failing tests and the trend lines where they belong; every string from a record is escaped.
/// (`xmllint`, as a child process: `HistoryHTMLXMLLintTests`.)
@Suite struct HistoryHTMLTests {
    static func history() throws -> (html: String, scratch: URL) {
        let scratch = try TemporaryDirectory.make("hil-history-html")
        let runs = try SampleHistory.write(into: scratch)
        let loaded = HistoryInputs.load(runs)
        return (HistoryHTML.render(RunHistory(loaded.runs)), scratch)
    }

    @Test func selfContainedWithTheReportsPolicyAndNoScript() throws {
        let (html, scratch) = try Self.history()
        defer { TemporaryDirectory.remove(scratch) }
        #expect(html.contains("content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\""))
        #expect(!html.contains("<script") && !html.contains("<link") && !html.contains("@import") && !html.contains("src="))
    }

    static let hostile = "<script>alert('x')</script> & \"q\" <b>"

    /// A record whose every string is `hostile`, failing, and the same passing: two runs of one commit that
    /// disagree (flaky), the second failing (failing since), in directories named hostile too.
    static func hostileHistory() -> (html: String, record: TestRecord) {
        let hostile = Self.hostile
        var record = SampleRecords.record("weird", accessory: hostile, verdict: .failed, message: hostile)
        record.suite = hostile
        record.name = hostile
        record.arguments = [hostile]
        record.measurements = [Measurement(name: "connect", value: 1, unit: hostile, samples: [1, 2, 3]),
                               Measurement(name: hostile, value: 1, unit: hostile)]
        var passing = record
        passing.verdict = .passed
        let context = RunContext(rigName: hostile, host: hostile, gitCommit: hostile, started: SampleRecords.start)
        func run(_ record: TestRecord, _ directory: String, _ offset: Double) -> RunResults {
            var context = context
            context.started = context.started.addingTimeInterval(offset)
            let cases = [CaseResult(record: record, source: .record)]
            return RunResults(layout: ResultsLayout(URL(fileURLWithPath: "/tmp/\(directory)")), context: context, cases: cases,
                              summary: Assembly(context: context, cases: cases).summary, source: .records)
        }
        return (HistoryHTML.render(RunHistory([run(passing, hostile, 0), run(record, "b" + hostile, 1)])), record)
    }

    #if canImport(FoundationXML)
    @Test func matrixFlakyFailingAndTrendsWhereTheyBelong() throws {
        let (html, scratch) = try Self.history()
        defer { TemporaryDirectory.remove(scratch) }
        let document = try XMLDocument(xmlString: html, options: [])
        func strings(_ xpath: String) throws -> [String] { try document.nodes(forXPath: xpath).compactMap(\.stringValue) }
        // Sections in order: flaky tests first.
        #expect(try strings("//section/@id") == ["flaky", "failing", "matrix", "trends", "measurements", "runs"])
        let flaky = try strings("//ul[@class='flaky']/li")
        #expect(flaky.count == 2)
        #expect(flaky.first { $0.hasPrefix("PowerOffTests/reconnect [thermometer]") }?
            .contains("on commit \(SampleHistory.commits[0].prefix(12)) passed in run #1 and failed in run #2") == true, "\(flaky)")
        #expect(flaky.contains { $0.hasPrefix("PowerOffTests/loop [scale]") && $0.contains("run #4 and failed in run #4") }, "\(flaky)")
        // Failing: the run where the streak began and its commit.
        let failing = try document.nodes(forXPath: "//table[@class='failing']/tbody/tr")
        #expect(failing.count == 2)
        let powerOff = try #require(failing.first { $0.stringValue?.hasPrefix("PowerOffTests/powerOffWhileConnected [thermometer]") == true })
        #expect(try powerOff.nodes(forXPath: "td[2]").first?.stringValue?.hasPrefix("run #3 ") == true)
        #expect(try powerOff.nodes(forXPath: "td[3]/code/@title").first?.stringValue == SampleHistory.commits[2])
        // Matrix: a column per run, a row per test, flaky rows first; colour class and number per cell.
        #expect(try document.nodes(forXPath: "//table[@class='matrix']/thead/tr/th[@class='run']").count == 5)
        let rows = try document.nodes(forXPath: "//table[@class='matrix']/tbody/tr")
        #expect(rows.count == SampleHistory.verdicts.count)
        #expect(try rows.prefix(2).allSatisfy { try $0.nodes(forXPath: "td[1]/span[@class='tag flaky']").count == 1 })
        let row = try #require(rows.first { $0.stringValue?.hasPrefix("PowerOffTests/powerOffWhileConnected") == true })
        #expect(try row.nodes(forXPath: "td[@class]/@class").compactMap(\.stringValue).dropFirst() == ["cell pass", "cell pass", "cell fail", "cell fail", "cell fail"])
        #expect(try row.nodes(forXPath: "td[position() > 1]").compactMap(\.stringValue) == ["100%", "100%", "0%", "0%", "0%"])
        let loop = try #require(rows.first { $0.stringValue?.hasPrefix("PowerOffTests/loop") == true })
        #expect(try loop.nodes(forXPath: "td[5]").first?.stringValue == "67%", "2 of 3 repetitions passed")
        #expect(try loop.nodes(forXPath: "td[5]/@class").first?.stringValue == "cell mixed")
        let advertise = try #require(rows.first { $0.stringValue?.hasPrefix("PowerOffTests/advertiseAfterPowerOn") == true })
        #expect(try advertise.nodes(forXPath: "td[5]").first?.stringValue == "infra")
        // Trend lines: connect measured in all five runs, discovery in two.
        let figures = try document.nodes(forXPath: "//section[@id='trends']/figure")
        #expect(figures.count == 2)
        #expect(try figures.map { try $0.nodes(forXPath: ".//*[local-name()='circle']").count } == [5, 2])
        #expect(try strings("//section[@id='trends']/figure/figcaption") == ["connect p95 (ms)", "discovery p95 (ms)"])
        let titles = try strings("//section[@id='trends']/figure[1]//*[local-name()='circle']/*[local-name()='title']")
        #expect(titles.count == 5 && titles[2].hasSuffix(": p95 290 ms over 3 values"), "\(titles)")
        #expect(try strings("//section[@id='measurements']//tbody/tr/td[1]") == ["link loss reported (ms)"])
    }

    /// (libxml2's reading of the same page as HTML and as XML: `HistoryHTMLXMLLintTests`.)
    @Test func everyStringFromARecordIsEscaped() throws {
        let hostile = Self.hostile
        let (html, record) = Self.hostileHistory()
        #expect(!html.contains("<script") && !html.contains("<b>"))
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot; &lt;b&gt;"))
        // libxml2 reads back every string as it was written.
        let document = try XMLDocument(xmlString: html, options: [])
        let displayName = CaseResult.displayName(record)
        #expect(try document.nodes(forXPath: "//table[@class='matrix']/tbody/tr/td[1]").first?.stringValue?.hasPrefix(displayName) == true)
        #expect(try document.nodes(forXPath: "//ul[@class='flaky']/li/span[@class='name']").first?.stringValue == displayName)
        #expect(try document.nodes(forXPath: "//table[@class='runs']/tbody/tr/td[3]").compactMap(\.stringValue) == ["/tmp/" + hostile, "/tmp/b" + hostile])
        #expect(try document.nodes(forXPath: "//table[@class='runs']/tbody/tr/td[5]").first?.stringValue == hostile)
        #expect(try document.nodes(forXPath: "//table[@class='runs']/tbody/tr/td[6]").first?.stringValue == hostile)
        #expect(try document.nodes(forXPath: "//table[@class='runs']/tbody/tr/td[4]/code/@title").first?.stringValue == hostile)
        #expect(try document.nodes(forXPath: "//section[@id='measurements']//tbody/tr/td[1]").first?.stringValue == "\(hostile) (\(hostile))")
        #expect(try document.nodes(forXPath: "//section[@id='trends']/figure/figcaption").first?.stringValue == "connect p95 (\(hostile))")
    }
    #endif
}
