#if canImport(FoundationXML)
import FoundationXML
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
@testable import HILResults
import Testing
import TestSupport

/// A run a signal cut short is never green: its summary, junit.xml and results.json say it was interrupted,
/// by which signal, when and in which phase, and its exit status is the shell's for that signal (128 + the
/// signal number: 130 for SIGINT, 143 for SIGTERM, as `sh -c 'kill -INT $$'; echo $?` prints).
@Suite struct RunInterruptionTests {
    static let time = SampleRecords.start.addingTimeInterval(12.25)

    @Test(arguments: [(SIGINT, Int32(130), "SIGINT"), (SIGTERM, Int32(143), "SIGTERM"), (SIGHUP, Int32(129), "SIGHUP")])
    func theExitStatusIsTheShells(signal: Int32, status: Int32, name: String) {
        let interruption = RunInterruption(signal: signal, phase: .building, time: Self.time)
        #expect(interruption.exitStatus == status)
        #expect(interruption.signalName == name)
        #expect(interruption.message.hasPrefix("interrupted by \(name) at 2026-11-29T14:53:32.250Z "), "\(interruption.message)")
        #expect(interruption.message.hasSuffix(" while building the tests"), "\(interruption.message)")
    }

    /// The defect: a signal after the build and before the first case gave exit 0 and `errors=0`. An
    /// interrupted run with no case at all is an error in junit.xml and in the summary.
    @Test func aRunInterruptedBeforeItsFirstCaseIsAnError() throws {
        let interruption = RunInterruption(signal: SIGTERM, phase: .beforeFirstCase, time: Self.time, action: "stopped swift test (PID 4242)")
        let assembly = Assembly(context: SampleRecords.context, cases: [], isComplete: false, interruption: interruption)
        let summary = assembly.summary
        #expect(summary.outcome == .interrupted)
        #expect(summary.exitStatus == 143)
        #expect(!summary.isComplete)
        #expect(summary.problems == [interruption.message])
        #expect(summary.total == 0)
        #if canImport(FoundationXML)
        let document = try XMLDocument(xmlString: JUnitReport.render(assembly), options: [])
        #expect(try document.nodes(forXPath: "/testsuites/@errors").first?.stringValue == "1")
        let error = try #require(try document.nodes(forXPath: "//testsuite[@name='hil']/testcase[@name='run interrupted']/error").first as? XMLElement)
        #expect(error.attribute(forName: "type")?.stringValue == "interrupted")
        let message = try #require(error.attribute(forName: "message")?.stringValue)
        #expect(message.contains("SIGTERM") && message.contains("after the build, before the first test case") && message.contains("PID 4242"), "\(message)")
        #endif
    }

    /// A run whose cases all passed but which a signal cut is interrupted, not passed: the interruption
    /// outranks every verdict and every other problem, usage errors included.
    @Test func anInterruptionOutranksEverythingElse() {
        let interruption = RunInterruption(signal: SIGINT, phase: .betweenCases(after: "PowerOffTests/passes"), time: Self.time)
        let cases = [VerdictMerge.merge(record: SampleRecords.record("passes"), issues: [])]
        let assembly = Assembly(context: SampleRecords.context, cases: cases, problems: [.init("bad rig", outcome: .usageError)],
                                interruption: interruption)
        #expect(assembly.summary.outcome == .interrupted)
        #expect(assembly.summary.exitStatus == 130)
        #expect(assembly.summary.problems.first == interruption.message)
        #expect(RunOutcome.allOutcomes.max() == .interrupted)
    }

    /// results.json's `summary.interruption`: the signal by name and number, the status, the phase and its case.
    @Test func resultsJSONCarriesTheInterruption() throws {
        let interruption = RunInterruption(signal: SIGTERM, phase: .duringCase("PowerOffTests/powerOff [thermometer]"), time: Self.time,
                                           action: "stopped swift test (PID 7)")
        let data = try ResultsJSON.render(Assembly(context: SampleRecords.context, cases: [], interruption: interruption))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let object = try #require(document["summary"] as? [String: Any])
        let told = try #require(object["interruption"] as? [String: Any])
        #expect(told["signal"] as? String == "SIGTERM")
        #expect(told["signalNumber"] as? Int == 15)
        #expect(told["exitStatus"] as? Int == 143)
        #expect(told["phase"] as? String == "duringCase")
        #expect(told["testCase"] as? String == "PowerOffTests/powerOff [thermometer]")
        #expect(told["action"] as? String == "stopped swift test (PID 7)")
        #expect(object["exitStatus"] as? Int == 143)
        let toldData = try JSONSerialization.data(withJSONObject: told)
        #expect(try TestRecord.makeDecoder().decode(RunInterruption.self, from: toldData) == interruption)
    }

    @Test func anUnknownPhaseInResultsJSONIsAnError() throws {
        let text = #"{"signalNumber": 2, "phase": "napping", "time": "2026-11-30T10:00:00Z"}"#
        #expect(throws: DecodingError.self) { try TestRecord.makeDecoder().decode(RunInterruption.self, from: Data(text.utf8)) }
    }

    /// The defect: an abort with no case running added no failure. A run cut short for any reason but a
    /// signal (a deadline, a test process that died) is an infrastructure error in junit.xml even with no case.
    @Test func anAbortWithNoCaseRunningIsStillAnError() {
        let assembly = ResultsAssembler.assemble(records: [], run: nil, context: SampleRecords.context,
                                                 abort: .init("the test process ended (signal 9) before the run finished"))
        #expect(assembly.summary.outcome == .infrastructureError)
        #expect(assembly.summary.problems == ["the test process ended (signal 9) before the run finished"])
        #expect(JUnitReport.render(assembly).contains("errors=\"1\""))
    }

    /// The phase of a run whose tests were running, from its event stream at the signal's time: the case
    /// running then, else the last to have ended, else none yet.
    @Test func theTestingPhaseIsReadFromTheEventStreamAtTheSignalsTime() throws {
        let text = try String(contentsOf: try Fixtures.url("events/mixed-verdicts.jsonl"), encoding: .utf8)
        var run = SwiftTestingRun()
        for line in text.split(separator: "\n") { run.apply(try EventStreamRecord.decode(line: Data(line.utf8))) }
        let cases = run.orderedCases.filter { !$0.isSuiteLevel && !run.isSuite($0.key.testID) }
        let first = try #require(cases.first)
        let started = try #require(first.started)
        let ended = try #require(first.ended)
        #expect(RunInterruption.testingPhase(run, at: started.addingTimeInterval(-1)) == .beforeFirstCase)
        #expect(RunInterruption.testingPhase(run, at: started) == .duringCase(RunInterruption.name(first)))
        let afterAll = try #require(cases.compactMap(\.ended).max())
        let last = try #require(cases.max { ($0.ended ?? .distantPast) < ($1.ended ?? .distantPast) })
        #expect(RunInterruption.testingPhase(run, at: afterAll.addingTimeInterval(1)) == .betweenCases(after: RunInterruption.name(last)))
        #expect(ended >= started)
    }
}

extension RunOutcome {
    static let allOutcomes: [RunOutcome] = [.passed, .productFailure, .infrastructureError, .usageError, .interrupted]
}
