import Foundation
@testable import HILResults
import Testing
import TestSupport

/// Swift Testing's event stream (version 0), from lines this toolchain wrote (Fixtures/events).
@Suite struct EventStreamTests {
    @Test func casesVerdictsIssuesAndSkipsFromARealStream() throws {
        let run = try Fixtures.run("mixed-verdicts")
        #expect(run.runStarted != nil && run.runEnded != nil)
        #expect(run.plannedCaseCount == 9)
        #expect(run.orderedCases.count == 9)
        #expect(run.orderedCases.allSatisfy { $0.hasEnded })

        let fails = try #require(run.cases[.init(testID: "FixTests.PowerOffTests/fails()/FixTests.swift:6:6")])
        let issue = try #require(fails.failures.first)
        #expect(issue.sourceLocation == "FixTests.swift:8")
        #expect(issue.line == 8)
        #expect(issue.filePath == "/tmp/evfix/Tests/FixTests/FixTests.swift")
        #expect(issue.message.hasPrefix("Expectation failed:"))
        #expect(issue.details == ["awaited disconnect within 2 s, observed still connected"])

        let skipped = try #require(run.cases[.init(testID: "FixTests.PowerOffTests/skipped()/FixTests.swift:13:6")])
        #expect(skipped.skipReason == "rig lacks a power switch")
        #expect(skipped.hasEnded)

        let known = try #require(run.cases[.init(testID: "FixTests.PowerOffTests/known()/FixTests.swift:16:6")])
        #expect(known.issues.count == 1)
        #expect(known.failures.isEmpty, "a known issue does not fail a case")

        let thrown = try #require(run.cases[.init(testID: "FixTests.PowerOffTests/throwsError()/FixTests.swift:15:6")])
        #expect(thrown.failures.first?.message == "Caught error: Boom()")
    }

    @Test func parameterizedCasesKeepTheirArgumentsAndTheirOwnIssues() throws {
        let run = try Fixtures.run("mixed-verdicts")
        let testID = "FixTests.PowerOffTests/perAccessory(accessory:)/FixTests.swift:10:6"
        #expect(run.test(testID)?.displayName == "Shown <name>")
        let cases = run.orderedCases.filter { $0.key.testID == testID }
        #expect(cases.map(\.arguments) == ["\"thermometer\"", "\"scale <b>\""])
        #expect(cases.map(\.failures.count) == [0, 1])
        #expect(cases.allSatisfy { $0.key.caseID?.hasPrefix("Parameterized test case ID") == true })
    }

    @Test func cancellationAttachmentsAndAMatrix() throws {
        let run = try Fixtures.run("cancel-matrix-attachment")
        let matrix = run.orderedCases.filter { $0.key.testID.contains("matrix(") }
        #expect(matrix.count == 4)
        #expect(matrix.filter { !$0.failures.isEmpty }.map(\.arguments) == ["\"scale\", 2"])
        let cancelled = try #require(run.cases[.init(testID: "FixTests.Outer/Inner/cancelled()/More.swift:9:10")])
        #expect(cancelled.cancelReason == "bench broke earlier: adapter usb:0 stopped answering")
        let attaches = try #require(run.cases[.init(testID: "FixTests.Outer/Inner/attaches()/More.swift:11:10")])
        #expect(attaches.attachments == ["note.txt"])
        let oneCase = run.orderedCases.filter { $0.key.testID.contains("cancelOneCase(") }
        #expect(oneCase.map(\.cancelReason) == [nil, "case cancelled"])
    }

    @Test func verdictsFromSwiftTestingAloneWhenThereAreNoRecords() throws {
        let run = try Fixtures.run("cancel-matrix-attachment")
        let assembly = ResultsAssembler.assemble(records: [], run: run, context: SampleRecords.context)
        let verdicts = Dictionary(grouping: assembly.cases, by: \.verdict).mapValues(\.count)
        // matrix: 3 passed + 1 failed; cancelled(): skipped; warns(), attaches(): passed; cancelOneCase: 1 passed + 1 skipped.
        #expect(verdicts[.passed] == 6)
        #expect(verdicts[.failed] == 1)
        #expect(verdicts[.skipped] == 2)
        #expect(assembly.cases.allSatisfy { $0.source == .swiftTesting })
        #expect(assembly.summary.outcome == .productFailure)
    }

    @Test func followingAGrowingFileByteByByteGivesTheSameRunAsReadingItWhole() throws {
        let source = try Data(contentsOf: try Fixtures.url("events/mixed-verdicts.jsonl"))
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let path = directory.appendingPathComponent("events.jsonl").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let writer = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        let tail = FileTail(path: path)
        var incremental = SwiftTestingRun()
        var finishedOrder: [SwiftTestingRun.CaseKey] = []
        var offset = 0
        var chunk = 1
        while offset < source.count {
            let end = min(source.count, offset + chunk)
            try writer.write(contentsOf: source[offset..<end])
            offset = end
            chunk = chunk % 977 + 1  // 1, 2, 3, … bytes: lines split everywhere
            for line in tail.readLines() { finishedOrder += incremental.apply(try EventStreamRecord.decode(line: line.bytes)) }
        }
        try writer.close()
        #expect(tail.incompleteLine == nil)
        let whole = try Fixtures.run("mixed-verdicts")
        #expect(incremental.caseOrder == whole.caseOrder)
        #expect(Set(finishedOrder) == Set(whole.caseOrder))
        #expect(finishedOrder.count == whole.caseOrder.count, "each case finishes once")
        #expect(incremental.orderedCases.map(\.failures.count) == whole.orderedCases.map(\.failures.count))
    }

    @Test func aTruncatedStreamReportsItsIncompleteLineAndKeepsTheRest() throws {
        let source = try String(contentsOf: try Fixtures.url("events/mixed-verdicts.jsonl"), encoding: .utf8)
        let lines = source.split(separator: "\n")
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let url = directory.appendingPathComponent("cut.jsonl")
        // 20 whole lines, then half of the 21st.
        let cut = lines.prefix(20).joined(separator: "\n") + "\n" + lines[20].prefix(lines[20].count / 2)
        try cut.write(to: url, atomically: true, encoding: .utf8)
        let loaded = SwiftTestingRun.load(url)
        #expect(loaded.errors.isEmpty)
        #expect(loaded.incompleteLine == 21)
        #expect(loaded.run.runStarted != nil)
        #expect(loaded.run.runEnded == nil)
        #expect(loaded.run.orderedCases.contains { !$0.hasEnded }, "cases started before the cut are still running")
    }

    @Test func corruptLinesAreErrorsNamingFileAndLine() throws {
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let url = directory.appendingPathComponent("bad.jsonl")
        let good = #"{"kind":"event","payload":{"instant":{"absolute":1,"since1970":1795964849.8},"kind":"runStarted","messages":[]},"version":0}"#
        let text = [good, "not json at all", "[1,2]", #"{"kind":"event","payload":{"kind":"testStarted"},"version":0}"#,
                    #"{"kind":"event","payload":{},"version":1}"#, #"{"kind":"futureKind","payload":{},"version":0}"#].joined(separator: "\n") + "\n"
        try text.write(to: url, atomically: true, encoding: .utf8)
        let loaded = SwiftTestingRun.load(url)
        #expect(loaded.errors.map(\.line) == [2, 3, 4, 5])
        #expect(loaded.errors.allSatisfy { $0.file == url.path })
        #expect(loaded.errors[0].message.contains("not JSON"))
        #expect(loaded.errors[1].message.contains("expected a JSON object"))
        #expect(loaded.errors[2].message.contains("instant"), "names the missing field: \(loaded.errors[2].message)")
        #expect(loaded.errors[3].message.contains("version 1"))
        #expect(loaded.run.runStarted != nil, "the good line still counts")
    }

    @Test func aMissingStreamIsAnErrorNotACrash() {
        let loaded = SwiftTestingRun.load(URL(fileURLWithPath: "/nonexistent/hil/.events.jsonl"))
        #expect(loaded.errors.first?.message == "does not exist")
        #expect(loaded.run.orderedCases.isEmpty)
    }

    @Test(arguments: [
        ("HILTests.PowerOffTests/powerOffWhileConnected(accessory:)/PowerOffTests.swift:12:6", "HILTests", ["PowerOffTests"], "powerOffWhileConnected"),
        ("FixTests.Outer/Inner/matrix(accessory:interval:)/More.swift:6:10", "FixTests", ["Outer", "Inner"], "matrix"),
        ("FixTests.freeFunction()/FixTests.swift:19:2", "FixTests", [], "freeFunction"),
        ("FixTests.PowerOffTests", "FixTests", [], "PowerOffTests"),
    ])
    func testIDsSplitIntoModuleSuitesAndFunction(id: String, module: String, suites: [String], function: String) {
        let parts = TestIDParts(id)
        #expect(parts.module == module)
        #expect(parts.suitePath == suites)
        #expect(parts.function == function)
    }

    @Test func displayNamesWithParenthesesAreNotMistakenForSelectors() {
        #expect(TestIDParts.trimParameters("powerOff(accessory:)") == "powerOff")
        #expect(TestIDParts.trimParameters("reset()") == "reset")
        #expect(TestIDParts.trimParameters("Power off (cold)") == "Power off (cold)")
        #expect(TestIDParts.trimParameters("f(a b:)") == "f(a b:)")
    }
}
