import Foundation
@testable import HILResults
import Testing
import TestSupport

/// junit.xml as junitparser (PyPI, the JUnit reader CI tools are built on; scripts/peers/venv installs it)
/// reads it: one testcase per case under the case's one name, each verdict as its result element, the
/// failure's location relative to the package, the capture as an `[[ATTACHMENT|…]]` line. Python runs as a
/// child process.
@Suite(.tags(.process)) struct JUnitParserTests {
    static let reader = """
    import json, sys
    from junitparser import JUnitXml, Failure, Error, Skipped
    cases = []
    for suite in JUnitXml.fromfile(sys.argv[1]):
        for case in suite:
            kinds = [type(r).__name__ for r in case.result]
            messages = [r.message or "" for r in case.result]
            cases.append({"suite": suite.name, "classname": case.classname, "name": case.name, "results": kinds,
                          "messages": messages, "out": case.system_out or ""})
    print(json.dumps(cases))
    """

    struct Read: Decodable {
        let suite: String
        let classname: String
        let name: String
        let results: [String]
        let messages: [String]
        let out: String
    }

    static func read(_ xml: String) async throws -> [Read] {
        let python = repositoryRoot.appendingPathComponent(".venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw PeerError("no .venv: scripts/peers/venv makes it with junitparser (scripts/test runs it)")
        }
        let directory = try TemporaryDirectory.make("hil-junitparser")
        defer { TemporaryDirectory.remove(directory) }
        let file = directory.appendingPathComponent("junit.xml")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        let ran = await runProgramCapturing(python, ["-c", reader, file.path])
        guard ran.termination?.exitStatus == 0 else { throw PeerError("junitparser could not read junit.xml: \(ran.stderr.suffix(600))") }
        return try JSONDecoder().decode([Read].self, from: Data(ran.stdout.utf8))
    }

    @Test func junitparserReadsEveryCaseUnderItsOneName() async throws {
        var context = SampleRecords.context
        context.package = "/work/pkg"
        var assembly = ResultsAssembler.assemble(records: SampleRecords.mixed(), run: nil, context: context)
        assembly.cases.append(JUnitSchemaTests.suiteSkip)
        let cases = try await Self.read(JUnitReport.render(assembly))
        let expected = assembly.cases.filter { !$0.isSuiteNote }
        #expect(cases.map(\.name) == expected.map(\.displayName), "the name junitparser reads is the one the terminal and report.html show")
        #expect(cases.map(\.results) == [[], ["Failure"], ["Error"], ["Skipped"]])
        let failed = try #require(cases.dropFirst().first)
        #expect(failed.messages.first?.hasPrefix("PowerOffTests.swift:42: ") == true, "\(failed.messages)")
        #expect(cases.allSatisfy { !$0.classname.isEmpty && $0.classname == $0.suite })
        let withCapture = cases.filter { $0.out.contains("[[ATTACHMENT|captures/") }
        #expect(!withCapture.isEmpty, "\(cases.map(\.out))")
    }
}
