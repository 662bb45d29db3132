import Foundation
@testable import HILResults
import Testing
import TestSupport

/// junit.xml against a schema we did not write: the xunit-plugin's junit-10.xsd (`Fixtures/junit-10.xsd`),
/// checked by libxml2's `xmllint --schema`. Without xmllint these tests fail: scripts/install-deps installs it.
/// xmllint runs as a child process.
@Suite(.tags(.process)) struct JUnitSchemaTests {
    /// Every kind of case junit.xml holds: passed, failed (a record's message and a Swift Testing issue in
    /// a file under the package), infrastructure error, skipped, a suite skipped as a whole, measurements
    /// with samples, bench properties that differ between cases, captures, a run problem, an unfinished run.
    static func representative() -> Assembly {
        var records = SampleRecords.mixed()
        records.append(SampleRecords.record("connectLatency", accessory: "scale", offset: 4,
                                            measurements: [HILResults.Measurement(name: "connect latency", value: 0.0123456, unit: "s", budget: 0.05,
                                                                                  samples: [0.011, 0.012, 0.013, 0.02])],
                                            properties: ["adapter": "usb:1", "controller.bdaddr": "00:1B:DC:0A:0B:0D", "rig": "lab-bench-1"]))
        var assembly = ResultsAssembler.assemble(records: records, run: nil, context: SampleRecords.context, isComplete: false)
        let issue = SwiftTestingRun.Issue(message: "Expectation failed: state == .disconnected", details: ["multi\nline"], isKnown: false,
                                          sourceLocation: "PowerOffTests.swift:57", filePath: "/work/main/Tests/HILTests/PowerOffTests.swift",
                                          line: 57, time: SampleRecords.start)
        if let failed = assembly.cases.firstIndex(where: { $0.verdict == .failed }) { assembly.cases[failed].issues.append(issue) }
        assembly.cases.append(suiteSkip)
        assembly.problems = [.init("records/x.json: not a valid test record", outcome: .infrastructureError)]
        return assembly
    }

    /// What the assembler makes of a `.disabled` suite's `testSkipped`: a Swift Testing result whose test ID is the suite's.
    static let suiteSkip = CaseResult(record: TestRecord(testID: "HILTests.ScanTests", name: "ScanTests", suite: "", started: SampleRecords.start,
                                                         duration: 0, verdict: .skipped, message: "rig has no second adapter"),
                                      source: .swiftTesting)

    @Test func representativeJunitValidatesAgainstJunit10() async throws {
        let result = try await Self.validate(JUnitReport.render(Self.representative()))
        #expect(result.status == 0, "xmllint: \(result.stderr)")
        #expect(result.stderr.contains("validates"), "xmllint: \(result.stderr)")
    }

    @Test func aMinimalRunValidatesToo() async throws {
        let empty = ResultsAssembler.assemble(records: [], run: nil, context: SampleRecords.context)
        let result = try await Self.validate(JUnitReport.render(empty))
        #expect(result.status == 0, "xmllint: \(result.stderr)")
    }

    /// An interrupted run's junit.xml (its `<error type="interrupted">`, with and without cases) is valid too.
    @Test(arguments: [false, true])
    func anInterruptedRunValidatesToo(withCases: Bool) async throws {
        var assembly = withCases ? Self.representative() : ResultsAssembler.assemble(records: [], run: nil, context: SampleRecords.context)
        assembly.interruption = RunInterruption(signal: 15, phase: .duringCase("PowerOffTests/powerOff [thermometer]"),
                                                time: SampleRecords.start, action: "stopped swift test (PID 4242)")
        let xml = JUnitReport.render(assembly)
        #expect(xml.contains("type=\"interrupted\""))
        let result = try await Self.validate(xml)
        #expect(result.status == 0, "xmllint: \(result.stderr)")
    }

    /// The check can fail: the schema rejects what junit.xml used to hold (testcase `<properties>`, `file`/`line`).
    @Test(arguments: ["<testcase name=\"t\"><properties/></testcase>", "<testcase name=\"t\" file=\"/a.swift\" line=\"1\"/>"])
    func theSchemaRejectsWhatWeNoLongerWrite(testcase: String) async throws {
        let xml = "<testsuites><testsuite name=\"s\" tests=\"1\" failures=\"0\" errors=\"0\">\(testcase)</testsuite></testsuites>\n"
        let result = try await Self.validate(xml)
        #expect(result.status != 0)
        #expect(result.stderr.contains("fails to validate"), "xmllint: \(result.stderr)")
    }

    struct XMLLintMissing: Error, CustomStringConvertible {
        var description: String {
            "xmllint is not on PATH: these tests need it to check junit.xml against junit-10.xsd (Debian libxml2-utils; scripts/install-deps installs it)"
        }
    }

    /// `xmllint` on PATH.
    static func xmllint() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/xmllint"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw XMLLintMissing()
    }

    /// `xmllint --noout --schema junit-10.xsd FILE` on `xml` written to a temp file.
    static func validate(_ xml: String) async throws -> (status: Int32, stderr: String) {
        let tool = try xmllint()
        let schema = try Fixtures.url("junit-10.xsd")
        let directory = try TemporaryDirectory.make("hil-junit")
        defer { TemporaryDirectory.remove(directory) }
        let file = directory.appendingPathComponent("junit.xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        let ran = await runProgramCapturing(tool, ["--noout", "--schema", schema.path, file.path])
        return (ran.termination?.exitStatus ?? 127, ran.stderr)
    }
}
