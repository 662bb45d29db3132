#if canImport(FoundationXML)
import FoundationXML
#endif
import Foundation
@testable import HILResults
import Testing
import TestSupport

/// Where junit.xml puts what junit-10.xsd has no place for: locations in the failure message, a suite's
/// own skip in its `<system-out>`, measurements as `[[PROPERTY|…]]` lines.
@Suite struct JUnitLayoutTests {
    #if canImport(FoundationXML)
    static func document(_ assembly: Assembly) throws -> XMLDocument {
        try XMLDocument(xmlString: JUnitReport.render(assembly), options: [])
    }

    @Test(arguments: [
        ("/work/main/Tests/HILTests/PowerOffTests.swift", "Tests/HILTests/PowerOffTests.swift:57: Expectation failed"),
        ("/elsewhere/PowerOffTests.swift", "PowerOffTests.swift:57: Expectation failed"),
    ])
    func theFailureMessageLeadsWithFileAndLineInsideThePackage(file: String, expected: String) throws {
        var record = SampleRecords.record("fails", verdict: .passed)
        record.capturePath = nil
        let issue = SwiftTestingRun.Issue(message: "Expectation failed", details: [], isKnown: false, sourceLocation: "PowerOffTests.swift:57",
                                          filePath: file, line: 57, time: SampleRecords.start)
        let merged = VerdictMerge.merge(record: record, issues: [issue])
        let assembly = Assembly(context: SampleRecords.context, cases: [merged])
        let failure = try #require(try Self.document(assembly).nodes(forXPath: "//testcase/failure").first as? XMLElement)
        #expect(failure.attribute(forName: "message")?.stringValue == expected)
        #expect(JUnitReport.render(assembly).contains("/elsewhere") == false, "no absolute path outside the package")
    }

    @Test func aSkippedSuiteIsNoTestcaseButSaysSoInItsSystemOut() throws {
        let skip = JUnitSchemaTests.suiteSkip
        let assembly = Assembly(context: SampleRecords.context, cases: [skip] + [VerdictMerge.merge(record: SampleRecords.record("passes"), issues: [])])
        let document = try Self.document(assembly)
        #expect(try document.nodes(forXPath: "//testcase").count == 1)
        let suite = try #require(try document.nodes(forXPath: "//testsuite[@name='HILTests.ScanTests']").first as? XMLElement)
        #expect(suite.attribute(forName: "tests")?.stringValue == "0")
        #expect(try suite.nodes(forXPath: "system-out").first?.stringValue == "suite skipped: rig has no second adapter")
        #expect(try document.nodes(forXPath: "/testsuites/@tests").first?.stringValue == "1")
        // Nor is it a test case in the summary: the counts are junit.xml's testcases.
        #expect(assembly.summary.total == 1 && assembly.summary.skipped == 0, "\(assembly.summary)")
    }

    /// A thrown error located at the test's line that threw (a HILTesting record's absolute path) is given
    /// relative to the package, in junit.xml and by `failureLocation`; outside the package, by file name.
    @Test func aRecordsThrowSiteIsRelativeToThePackage() throws {
        var record = SampleRecords.record("throws", verdict: .failed, message: "awaited LE Connection Complete within 2 s, observed none")
        record.sourceLocation = "/work/pkg/Tests/HILTests/Connect.swift:31"
        let merged = VerdictMerge.merge(record: record, issues: [])
        #expect(merged.failureLocation(packageRoot: "/work/pkg") == "Tests/HILTests/Connect.swift:31")
        #expect(merged.failureLocation(packageRoot: "/elsewhere") == "Connect.swift:31")
        var context = SampleRecords.context
        context.package = "/work/pkg"
        let failure = try #require(try Self.document(Assembly(context: context, cases: [merged])).nodes(forXPath: "//testcase/failure").first as? XMLElement)
        #expect(failure.attribute(forName: "message")?.stringValue?.hasPrefix("Tests/HILTests/Connect.swift:31: awaited LE Connection Complete") == true)
    }

    @Test func measurementsAreProperties() throws {
        let record = SampleRecords.record("loop", measurements: [HILResults.Measurement(name: "connect", value: 0.0125, unit: "s", samples: [0.01, 0.015])],
                                          properties: ["note": "two\nlines"])
        let document = try Self.document(Assembly(context: SampleRecords.context, cases: [VerdictMerge.merge(record: record, issues: [])]))
        let out = try #require(try document.nodes(forXPath: "//testcase/system-out").first?.stringValue)
        #expect(out.contains("[[PROPERTY|measurement.connect=0.0125 s]]"))
        #expect(out.contains("connect = 0.0125 s n=2"))
        #expect(try document.nodes(forXPath: "//testsuite/properties/property[@name='note']/@value").first?.stringValue == "two\nlines",
                "a one-case suite shares all its properties")
    }
    #endif

    @Test func suiteTimesFitTheSchemasPattern() {
        #expect(JUnitReport.surefireTime(1.23456) == "1.235")
        #expect(JUnitReport.surefireTime(.infinity) == "0")
        #expect(JUnitReport.surefireTime(-2) == "0")
        #expect(JUnitTestcase.oneLine("a\r\nb\nc") == "a\\nb\\nc")
    }
}
