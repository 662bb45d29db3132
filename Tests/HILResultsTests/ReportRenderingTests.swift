#if canImport(FoundationXML)
import FoundationXML
#endif
import Foundation
@testable import HILResults
import Testing
import TestSupport

@Suite struct JUnitReportTests {
    static func assembly(_ records: [TestRecord] = SampleRecords.mixed()) -> Assembly {
        ResultsAssembler.assemble(records: records, run: nil, context: SampleRecords.context)
    }

    #if canImport(FoundationXML)
    @Test func wellFormedWithOneTestcasePerAccessoryAndTheVerdictElements() throws {
        let xml = JUnitReport.render(Self.assembly())
        let document = try XMLDocument(xmlString: xml, options: [])
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        #expect(root.attribute(forName: "tests")?.stringValue == "4")
        #expect(root.attribute(forName: "failures")?.stringValue == "1")
        #expect(root.attribute(forName: "errors")?.stringValue == "1")
        #expect(root.attribute(forName: "skipped") == nil && root.attribute(forName: "timestamp") == nil, "junit-10.xsd allows neither on testsuites")
        #expect(try document.nodes(forXPath: "//testsuite/@skipped").compactMap(\.stringValue) == ["1"])
        let names = try document.nodes(forXPath: "//testcase/@name").compactMap(\.stringValue)
        // The one case name (CaseResult.displayName), as the terminal, the CI lines and report.html show it.
        #expect(names == ["PowerOffTests/powerOffWhileConnected [thermometer]", "PowerOffTests/powerOffWhileConnected [scale]",
                          "PowerOffTests/advertiseAfterPowerOn [thermometer]", "PowerOffTests/reconnect [thermometer]"])
        #expect(try document.nodes(forXPath: "//testcase/@classname").compactMap(\.stringValue).allSatisfy { $0 == "HILTests.PowerOffTests" })

        let failure = try #require(try document.nodes(forXPath: "//testcase[failure]").first as? XMLElement)
        #expect(failure.attribute(forName: "file") == nil && failure.attribute(forName: "line") == nil, "file:line is in the message")
        let failureElement = try #require(failure.elements(forName: "failure").first)
        #expect(failureElement.attribute(forName: "type")?.stringValue == "product")
        #expect(failureElement.attribute(forName: "message")?.stringValue == "PowerOffTests.swift:42: awaited Disconnection Complete within 2 s, observed none")

        let error = try #require(try document.nodes(forXPath: "//testcase/error").first as? XMLElement)
        #expect(error.attribute(forName: "type")?.stringValue == "infrastructure")
        #expect(error.stringValue?.contains("did not answer HCI_Reset") == true)
        let skipped = try #require(try document.nodes(forXPath: "//testcase/skipped").first as? XMLElement)
        #expect(skipped.attribute(forName: "message")?.stringValue == "bench broke earlier: adapter usb:0 stopped answering")
    }

    @Test func runPropertiesOncePerSuiteAndCaseDataInSystemOut() throws {
        var records = SampleRecords.mixed()
        for index in records.indices { records[index].properties["rig"] = "lab-bench-1" }
        records[1].properties["controller.bdaddr"] = "00:1B:DC:0A:0B:0D"
        let document = try XMLDocument(xmlString: JUnitReport.render(Self.assembly(records)), options: [])
        func values(_ xpath: String) throws -> [String] { try document.nodes(forXPath: xpath).compactMap(\.stringValue) }
        #expect(try values("//testsuite/properties/property[@name='rig']/@value") == ["lab-bench-1"], "the run's and the records' rig: once")
        #expect(try values("//testsuite/properties/property[@name='host']/@value") == ["bench-host"])
        #expect(try values("//testsuite/properties/property[@name='git.commit']/@value") == ["0123456789abcdef0123456789abcdef01234567"])
        #expect(try values("//testsuite/properties/property[@name='run.started']/@value") == [ISO8601.string(SampleRecords.context.started)])
        #expect(try values("//testsuite/properties/property[@name='adapter']/@value") == ["usb:0"], "shared by every case of the suite")
        #expect(try values("//testsuite/properties/property[@name='controller.bdaddr']/@value").isEmpty, "differs between cases")
        #expect(try document.nodes(forXPath: "//testcase/properties").isEmpty)
        let outs = try values("//testcase/system-out")
        #expect(outs.count == 4)
        #expect(outs.filter { $0.contains("[[PROPERTY|accessory=thermometer]]") }.count == 3)
        #expect(outs.filter { $0.contains("[[PROPERTY|controller.bdaddr=") }.count == 4)
        #expect(outs.allSatisfy { !$0.contains("[[PROPERTY|adapter=") && !$0.contains("[[PROPERTY|rig=") }, "the suite's, not repeated")
        #expect(outs.first?.contains("[[PROPERTY|testID=HILTests.PowerOffTests/powerOffWhileConnected()/PowerOffTests.swift:10:6]]") == true)
        #expect(outs.first?.contains("[[ATTACHMENT|captures/powerOffWhileConnected-thermometer.btsnoop]]") == true)
        #expect(outs.first?.contains("[power] power off (verified: 1 device left)") == true)
    }

    @Test func hostileStringsStayWellFormed() throws {
        let hostile = "<script>alert('x')</script> & \"quotes\" \u{01}\u{1B}[31m ]]> \u{FFFE}"
        var record = SampleRecords.record("weird", accessory: hostile, verdict: .failed, message: hostile, location: "A.swift:1")
        record.properties = [hostile: hostile]
        let xml = JUnitReport.render(Self.assembly([record]))
        let document = try XMLDocument(xmlString: xml, options: [])
        #expect(try document.nodes(forXPath: "//testcase").count == 1)
        #expect(!xml.contains("<script>"))
        let name = try document.nodes(forXPath: "//testcase/@name").first?.stringValue
        #expect(name?.contains("<script>alert('x')</script> & \"quotes\"") == true, "escaped, not lost")
    }

    @Test func problemsShowAsErrorsOfTheirOwnSuite() throws {
        var assembly = Self.assembly()
        assembly.problems = [.init("records/x.json: not a valid test record: verdict: missing", outcome: .infrastructureError)]
        let document = try XMLDocument(xmlString: JUnitReport.render(assembly), options: [])
        #expect(try document.nodes(forXPath: "//testsuite[@name='hil']/testcase/error[@type='infrastructure']").count == 1)
    }
    #endif

    @Test func theIncompleteRunIsMarked() {
        var assembly = Self.assembly()
        assembly.isComplete = false
        #expect(JUnitReport.render(assembly).contains("<property name=\"run.complete\" value=\"false\"/>"))
        #expect(!JUnitReport.render(Self.assembly()).contains("run.complete"))
    }
}

@Suite struct HTMLReportTests {
    static func html(_ records: [TestRecord] = SampleRecords.mixed()) -> String {
        HTMLReport.render(ResultsAssembler.assemble(records: records, run: nil, context: SampleRecords.context))
    }

    @Test func summaryTableAndARowPerCase() {
        let html = Self.html()
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<td class=\"failed\"><span class=\"count\">1</span><br>failed</td>"))
        #expect(html.contains("<td class=\"total\"><span class=\"count\">4</span><br>total</td>"))
        #expect(html.components(separatedBy: "<tr class=\"").count - 1 >= 4)
        #expect(html.contains("hil run: infrastructure error"))
    }

    /// Failures, then infrastructure errors, then the rest in run order — in the table, the details and
    /// the list of failures at the top (mixed(): passed, failed, infrastructure error, skipped).
    @Test func failuresComeFirstEverywhereWithTheirReasonsAtTheTop() throws {
        let html = Self.html()
        func order(_ marker: String) -> [String] {
            html.components(separatedBy: marker).dropFirst().map { String($0.prefix { $0 != "\"" }) }
        }
        #expect(order("<tr class=\"").prefix(4) == ["failed", "infrastructureError", "passed", "skipped"])
        #expect(order("<article id=\"case-1\" class=\"case ") == ["failed"])
        #expect(order("<article id=\"case-") == ["1", "2", "3", "4"])
        let top = try #require(html.components(separatedBy: "<ol class=\"attention\">").dropFirst().first?.components(separatedBy: "</ol>").first)
        #expect(top.contains("<a href=\"#case-1\">PowerOffTests/powerOffWhileConnected [scale]</a>"))
        #expect(top.contains("PowerOffTests.swift:42: awaited Disconnection Complete within 2 s, observed none"))
        #expect(top.contains("<a href=\"#case-2\">PowerOffTests/advertiseAfterPowerOn [thermometer]</a>"))
        #expect(!top.contains("reconnect"), "a skip is not a failure")
        #expect(!Self.html([SampleRecords.record("fine")]).contains("class=\"attention\""), "nothing to list when all passed")
    }

    @Test func anSVGTimelineWithALanePerUsedLaneAndFailuresMarked() throws {
        let html = Self.html()
        #expect(html.components(separatedBy: "<svg class=\"timeline\"").count - 1 == 2, "two records have timelines")
        #expect(html.contains("data-lane=\"power\""))
        #expect(html.contains("data-lane=\"connection\""))
        #expect(!html.contains("data-lane=\"discovery\""), "unused lanes are left out")
        #expect(html.contains("class=\"event failure instant\""))
        #expect(html.contains("<title>2.000 s: no Disconnection Complete</title>"), "seconds to the millisecond")
        #expect(html.contains(">power off (verified: 1 device left)") || html.contains(">power off (verifi"), "a span's label on its bar")
    }

    @Test func histogramsAndPercentilesForLoops() {
        let samples = (1...100).map { Double($0) / 1000 }
        let record = SampleRecords.record("loop", measurements: [HILResults.Measurement(name: "connect latency", value: 0.05, unit: "s", budget: 0.09, samples: samples)])
        let html = Self.html([record])
        #expect(html.contains("<svg class=\"histogram\""))
        #expect(html.contains("<figcaption>connect latency</figcaption>"))
        #expect(html.contains("<td class=\"num\">100</td>"), "sample count")
        #expect(html.contains("<td class=\"num\">0.051 s</td>"), "p50 of 0.001…0.100 (0.0505), to the millisecond")
        #expect(html.contains("class=\"budget\""))
        #expect(html.components(separatedBy: "class=\"bar").count - 1 >= 5)
    }

    /// A firmware update's steps get their own row, between recovery and note, coloured apart from the rest.
    @Test func aFirmwareUpdateHasItsOwnLane() {
        let record = SampleRecords.record("cut", timeline: [
            TimelineEvent(offset: 0, duration: 0.4, lane: .update, label: "upload of 57 chunks to offset 12776", isFailure: false),
            TimelineEvent(offset: 0.4, lane: .power, label: "power off", isFailure: false),
            TimelineEvent(offset: 0.5, lane: .note, label: "a note", isFailure: false),
        ])
        let html = Self.html([record])
        let rows = html.components(separatedBy: "data-lane=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(rows == ["power", "update", "note"])
        #expect(html.contains(".lane-update .event{fill:"))
        #expect(html.contains("upload of 57 chunks to offset 12776"))
    }

    @Test func everyStringIsEscapedAndNothingIsLoadedOrRun() {
        let evil = "<script>alert(1)</script>"
        var record = SampleRecords.record(evil, accessory: evil, verdict: .failed, message: evil,
                                          timeline: [TimelineEvent(offset: 0, lane: .note, label: evil, isFailure: true)],
                                          measurements: [HILResults.Measurement(name: evil, value: 1, unit: evil, samples: [1, 2, 3])])
        record.suite = evil
        record.properties = [evil: evil]
        let html = Self.html([record])
        #expect(!html.contains("<script"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!html.contains("src="))
        #expect(!html.contains("<link"))
        #expect(!html.contains("@import"))
        #expect(html.contains("Content-Security-Policy"))
        // The only URL is the SVG namespace, which is never fetched.
        let urls = html.components(separatedBy: "://").dropFirst().map { String($0.prefix(19)) }
        #expect(!urls.isEmpty && urls.allSatisfy { $0.hasPrefix("www.w3.org/2000/svg") }, "\(urls)")
    }

    @Test(arguments: [
        ("captures/a b.btsnoop", "<a href=\"captures/a%20b.btsnoop\">a b.btsnoop</a>"),
        ("javascript:alert(1)", "<code>javascript:alert(1)</code>"),
        ("../../etc/passwd", "<code>../../etc/passwd</code>"),
        ("/etc/passwd", "<code>/etc/passwd</code>"),
    ])
    func captureLinksOnlyForPathsInsideTheResults(path: String, expected: String) {
        #expect(HTMLReport.captureLink(path) == expected)
    }
}

@Suite struct IncrementalWriteTests {
    /// After each of N records, the three files are re-written and each is complete and valid on its own.
    @Test func eachWriteLeavesValidFilesForEverythingFinished() throws {
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let layout = ResultsLayout(directory)
        try layout.create()
        var records: [TestRecord] = []
        for index in 0..<8 {
            let record = SampleRecords.record("case\(index)", accessory: index.isMultiple(of: 2) ? "thermometer" : "scale <b>",
                                              verdict: index == 3 ? .failed : .passed, message: index == 3 ? "awaited & observed" : nil,
                                              location: index == 3 ? "X.swift:9" : nil, offset: Double(index))
            try record.write(toResultsDirectory: directory)
            records = TestRecord.loadAll(in: layout.records).records
            let assembly = ResultsAssembler.assemble(records: records, run: nil, context: SampleRecords.context, isComplete: false)
            try ResultsWriter.write(assembly, to: layout)

            #if canImport(FoundationXML)
            let junit = try XMLDocument(contentsOf: layout.junit, options: [])
            #expect(try junit.nodes(forXPath: "//testcase").count == index + 1)
            #endif
            let json = try JSONSerialization.jsonObject(with: try Data(contentsOf: layout.resultsJSON)) as? [String: Any]
            #expect((json?["cases"] as? [Any])?.count == index + 1)
            #expect(((json?["summary"] as? [String: Any])?["isComplete"] as? Bool) == false)
            let html = try String(contentsOf: layout.report, encoding: .utf8)
            #expect(html.hasSuffix("</html>\n"))
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty, "no temporary files left: \(leftovers)")
    }

    @Test func atomicWriteReplacesWholeAndFailsWithTheFileNamed() throws {
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let url = directory.appendingPathComponent("out.txt")
        try ResultsFile.write("first, longer content", to: url)
        try ResultsFile.write("second", to: url)
        #expect(try String(contentsOf: url, encoding: .utf8) == "second")
        let missing = directory.appendingPathComponent("no/such/dir/out.txt")
        #expect { try ResultsFile.write("x", to: missing) } throws: { error in
            (error as? ResultsError)?.file == missing.path && (error as? ResultsError)?.message.contains("No such file") == true
        }
    }

    @Test func resultsJSONRoundTripsTheMergedRecords() throws {
        let assembly = ResultsAssembler.assemble(records: SampleRecords.mixed(), run: nil, context: SampleRecords.context)
        let data = try ResultsJSON.render(assembly)
        struct Document: Decodable { var schemaVersion: Int; var summary: RunSummary; var cases: [CaseResult] }
        let decoded = try TestRecord.makeDecoder().decode(Document.self, from: data)
        #expect(decoded.schemaVersion == 1)
        #expect(decoded.summary.exitStatus == 2)
        #expect(decoded.cases.map(\.record.verdict) == assembly.cases.map(\.record.verdict))
        #expect(decoded.cases.map(\.record.timeline) == assembly.cases.map(\.record.timeline))
        #expect(decoded.cases[1].failureLine == 42)
    }
}

@Suite struct SampleStatisticsTests {
    @Test func percentilesInterpolateBetweenRanks() {
        let p = SampleStatistics.percentiles((1...100).map(Double.init))
        #expect(abs(p.p50 - 50.5) < 1e-9)
        #expect(abs(p.p95 - 95.05) < 1e-9)
        #expect(abs(p.p99 - 99.01) < 1e-9)
        #expect(p.min == 1 && p.max == 100)
        #expect(SampleStatistics.percentiles([]).p50 == 0)
        #expect(SampleStatistics.percentiles([.nan, 3]).p99 == 3, "non-finite samples are ignored")
    }

    @Test func histogramCountsEverySampleOnce() {
        let samples = [0.010, 0.011, 0.012, 0.013, 0.030, 0.030]
        let (counts, edges) = SampleStatistics.histogram(samples, bins: 4, include: 0.05)
        #expect(counts.reduce(0, +) == samples.count)
        #expect(edges.count == 5)
        #expect(edges.first == 0.010 && abs((edges.last ?? 0) - 0.05) < 1e-12, "widened to the budget")
        #expect(SampleStatistics.histogram([2, 2, 2]).counts.reduce(0, +) == 3, "all equal: no division by zero")
    }
}

@Suite struct HostileValuesTests {
    /// Numbers a broken trait or a hand-edited record might hold: the reports still render, never trap.
    @Test func nonFiniteAndHugeNumbersRenderWithoutATrap() throws {
        let text = #"""
        {"testID":"M.S/t()/F.swift:1:1","name":"t()","suite":"S","arguments":[],"started":"2026-11-29T14:02:11Z","duration":"nan",
         "verdict":"failed","timeline":[{"offset":1e308,"lane":"power","label":"far","isFailure":false},
                                       {"offset":"inf","duration":"-inf","lane":"note","label":"inf","isFailure":true},
                                       {"offset":0.5,"duration":1e300,"lane":"connection","label":"long","isFailure":false}],
         "measurements":[{"name":"m","value":"nan","unit":"s","samples":[-1e308,1e308,"nan",0]},
                         {"name":"n","value":1,"unit":"s","budget":"inf","samples":[1,2,3]},
                         {"name":"tiny","value":0,"unit":"ratio","samples":[0,5e-324,0]}],"properties":{}}
        """#
        let record = try TestRecord.makeDecoder().decode(TestRecord.self, from: Data(text.utf8))
        let assembly = ResultsAssembler.assemble(records: [record], run: nil, context: SampleRecords.context)
        let html = HTMLReport.render(assembly)
        #expect(html.contains("<svg class=\"timeline\""), "the finite event is still drawn")
        #expect(!html.contains("\"nan\"") && !html.contains("=\"inf\""), "no NaN coordinates in the SVG")
        #expect(SampleStatistics.histogram([-1e308, 1e308, 0]).counts.reduce(0, +) == 3)
        #if canImport(FoundationXML)
        _ = try XMLDocument(xmlString: JUnitReport.render(assembly), options: [])
        #endif
        #expect(try JSONSerialization.jsonObject(with: try ResultsJSON.render(assembly)) is [String: Any])
        #expect(ProgressText.duration(1e300) == "> 30 years")
        #expect(LoopProgress(testID: "T", label: "x", done: Int.max - 1, total: Int.max).text(since: LoopProgress(testID: "T", label: "x", done: Int.min, total: Int.max)).hasPrefix("9223372036854775806/"))
    }
}
