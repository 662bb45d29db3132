import Foundation
@testable import HILResults
@testable import HILRunner
import Synchronization
import Testing
import TestSupport

@Suite struct SwiftTestInvocationTests {
    let layout = ResultsLayout(URL(fileURLWithPath: "/tmp/results", isDirectory: true))
    let rig = URL(fileURLWithPath: "/work/main/rigs/simulated.json")

    @Test func builtInSuitesAreNarrowedToHILTestsAndTheUserFilterInOneExpression() throws {
        let invocation = SwiftTestInvocation(suites: .builtIn(URL(fileURLWithPath: "/work/main")), filter: "PowerOff", layout: layout, rig: rig, repeatCount: 3)
        let filter = try #require(invocation.combinedFilter)
        let regex = try NSRegularExpression(pattern: filter)
        func matches(_ id: String) -> Bool { regex.firstMatch(in: id, range: NSRange(id.startIndex..., in: id)) != nil }
        #expect(matches("HILTests.PowerOffTests/powerOffWhileConnected(accessory:)"))
        #expect(!matches("HILTests.ConnectTests/connect(accessory:)"))
        #expect(!matches("HCITests.PowerOffCodecTests/decode()"), "another target's test never runs on the bench")
        #expect(SwiftTestInvocation(suites: .builtIn(URL(fileURLWithPath: "/work/main")), filter: nil, layout: layout, rig: rig).combinedFilter == "^HILTests\\.")
    }

    @Test func aPackageRunsItsOwnTestsWithTheFilterAsGiven() {
        let package = SwiftTestInvocation(suites: .package(URL(fileURLWithPath: "/home/me/thermo")), filter: nil, layout: layout, rig: rig)
        #expect(package.combinedFilter == nil)
        #expect(!package.testCommand.contains("--filter"))
        let filtered = SwiftTestInvocation(suites: .package(URL(fileURLWithPath: "/home/me/thermo")), filter: "Thermo", layout: layout, rig: rig)
        #expect(filtered.testCommand.suffix(2) == ["--filter", "Thermo"])
    }

    @Test func commandLinesAndEnvironment() {
        let invocation = SwiftTestInvocation(suites: .package(URL(fileURLWithPath: "/p")), filter: nil, layout: layout, rig: rig, repeatCount: 3, swift: "/opt/swift/usr/bin/swift")
        #expect(invocation.buildCommand == ["/opt/swift/usr/bin/swift", "build", "--build-tests", "--package-path", "/p"])
        let test = invocation.testCommand
        #expect(Array(test.prefix(6)) == ["/opt/swift/usr/bin/swift", "test", "--skip-build", "--package-path", "/p", "--no-parallel"])
        #expect(test.contains("--event-stream-version") && test[test.firstIndex(of: "--event-stream-version").map { $0 + 1 } ?? 0] == "0")
        #expect(test.contains("/tmp/results/.events.jsonl"))
        #expect(test.contains("--attachments-path") && test.contains("/tmp/results/attachments"))
        // HIL_RUNNER_PID: the tests end themselves when this runner is gone (RunnerWatchdog).
        #expect(invocation.environment == ["HIL_RIG": "/work/main/rigs/simulated.json", "HIL_RESULTS": "/tmp/results", "HIL_REPEAT": "3",
                                           "HIL_RUNNER_PID": String(ProcessInfo.processInfo.processIdentifier)])
    }

    /// `swift test` on Linux runs the Swift Testing half as `BUNDLE <its arguments> --testing-library swift-testing`
    /// (seen with strace on SwiftPM 6.3); `--test-bundle` runs exactly that, with nothing to build.
    @Test func aBuiltTestBundleRunsDirectlyAsSwiftPMRunsIt() throws {
        let bundle = URL(fileURLWithPath: "/work/main/.build/debug/BluetoothHILPackageTests.xctest")
        let invocation = SwiftTestInvocation(suites: .builtIn(URL(fileURLWithPath: "/work/main")), filter: "PowerOff", layout: layout, rig: rig,
                                             repeatCount: 2, swift: "/opt/swift/usr/bin/swift", testBundle: bundle)
        #expect(invocation.buildCommand == nil, "nothing is built")
        let filter = try #require(invocation.combinedFilter)
        #expect(invocation.testCommand == [bundle.path, "--no-parallel", "--event-stream-output-path", "/tmp/results/.events.jsonl",
                                           "--event-stream-version", "0", "--attachments-path", "/tmp/results/attachments",
                                           "--filter", filter, "--testing-library", "swift-testing"])
        #expect(!invocation.testCommand.contains("/opt/swift/usr/bin/swift"), "no SwiftPM")
        #expect(invocation.environment == SwiftTestInvocation(suites: .builtIn(URL(fileURLWithPath: "/work/main")), filter: "PowerOff", layout: layout,
                                                              rig: rig, repeatCount: 2).environment)
        let package = SwiftTestInvocation(suites: .package(URL(fileURLWithPath: "/home/me/thermo")), filter: nil, layout: layout, rig: rig, testBundle: bundle)
        #expect(!package.testCommand.contains("--filter"))
        #expect(package.testCommand.suffix(2) == ["--testing-library", "swift-testing"])
    }
}

@Suite struct ProgressTests {
    final class Lines: Sendable {
        private let storage = Mutex<[String]>([])
        func append(_ text: String) { storage.withLock { $0.append(text) } }
        var text: String { storage.withLock { $0.joined() } }
    }

    static func result(_ verdict: TestRecord.Verdict, message: String? = nil) -> CaseResult {
        var record = SampleRecords.record("powerOffWhileConnected", accessory: "thermometer", verdict: verdict, message: message,
                                          location: verdict == .failed ? "PowerOffTests.swift:42" : nil)
        record.duration = 0.84
        return CaseResult(record: record, source: .record)
    }

    @Test func quietModeIsOneMachineReadableLinePerCaseAndItsReason() {
        let out = Lines(), err = Lines()
        var printer = ProgressPrinter(RunOutput(isInteractive: false, out: out.append, err: err.append))
        printer.status("never shown")
        printer.caseFinished(Self.result(.passed))
        printer.caseFinished(Self.result(.failed, message: "awaited disconnect\nsecond line"))
        let lines = out.text.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        // Verdict, seconds, then the case's one name (as the terminal, junit.xml and report.html give it) to the end of the line.
        #expect(lines[0] == "case passed 0.84 PowerOffTests/powerOffWhileConnected [thermometer]")
        #expect(lines[1] == "case failed 0.84 PowerOffTests/powerOffWhileConnected [thermometer]")
        // A case that did not pass is followed by its reason: where, and the first line of what was awaited.
        #expect(lines[2] == "  reason: PowerOffTests.swift:42: awaited disconnect")
        #expect(lines.filter { $0.hasPrefix("case ") }.count == 2, "one case line per case")
        #expect(!out.text.contains("\u{1B}"), "no terminal control sequences")
    }

    /// A suite skipped as a whole is a `suite` line with its reason, not a case: the `case` lines add up to
    /// the summary's total, whose counts are junit.xml's testcases.
    @Test func aSkippedSuiteIsASuiteLineAndTheCaseLinesAddUpToTheTotal() throws {
        let out = Lines(), err = Lines()
        var printer = ProgressPrinter(RunOutput(isInteractive: false, out: out.append, err: err.append))
        // What the assembler makes of a skipped suite's `testSkipped` (as JUnitSchemaTests.suiteSkip).
        let suite = TestRecord(testID: "HILTests.Outer/ScanTests", name: "ScanTests", suite: "Outer", started: SampleRecords.start, duration: 0,
                               verdict: .skipped, message: "the rig has no second adapter")
        let suiteNote = CaseResult(record: suite, source: .swiftTesting)
        let cases = [suiteNote, Self.result(.passed), Self.result(.failed, message: "awaited disconnect")]
        for result in cases { printer.caseFinished(result) }
        let assembly = Assembly(context: SampleRecords.context, cases: cases)
        printer.summary(assembly.summary, layout: ResultsLayout(URL(fileURLWithPath: "/tmp/results")))
        let lines = out.text.split(separator: "\n").map(String.init)
        #expect(lines.first == "suite skipped Outer/ScanTests")
        #expect(lines.dropFirst().first == "  reason: skipped: the rig has no second adapter")
        let caseLines = lines.filter { $0.hasPrefix("case ") }.count
        #expect(caseLines == 2)
        #expect(lines.last?.hasPrefix("summary total=\(caseLines) passed=1 failed=1 infrastructureError=0 skipped=0 ") == true, "\(lines)")
    }

    @Test func interactiveModeShowsALinePerCaseWithItsTimeAndFailure() {
        let out = Lines(), err = Lines()
        var printer = ProgressPrinter(RunOutput(isInteractive: true, out: out.append, err: err.append))
        printer.caseFinished(Self.result(.passed))
        printer.status("[1/2] PowerOffTests/other 1.00 s · 3/10 power cycles · ETA 7.00 s")
        printer.caseFinished(Self.result(.failed, message: "awaited Disconnection Complete within 2 s, observed none"))
        let text = out.text
        #expect(text.contains("✔ PowerOffTests/powerOffWhileConnected [thermometer] 0.84 s\n"))
        #expect(text.contains("✘ PowerOffTests/powerOffWhileConnected [thermometer] 0.84 s\n    PowerOffTests.swift:42: awaited Disconnection Complete within 2 s, observed none\n"))
        #expect(text.contains("\r\u{1B}[2K[1/2]"), "the status line is drawn in place")
    }

    @Test func loopProgressGoesToTheResultsDirectoryWithAnETA() throws {
        let directory = try TemporaryDirectory.make()
        defer { TemporaryDirectory.remove(directory) }
        let first = LoopProgress(testID: "T", label: "power cycles", done: 1, total: 10, time: SampleRecords.start)
        let later = LoopProgress(testID: "T", label: "power cycles", done: 5, total: 10, time: SampleRecords.start.addingTimeInterval(8))
        first.report(environment: ["HIL_RESULTS": directory.path])
        later.report(environment: ["HIL_RESULTS": directory.path])
        LoopProgress(testID: "T", label: "x", done: 1, total: 1).report(environment: [:])  // no HIL_RESULTS: nothing, no crash
        let lines = try String(contentsOf: ResultsLayout(directory).progress, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(later.text(since: first) == "5/10 power cycles · ETA 10.0 s")  // 2 s per cycle, 5 to go
        #expect(first.text(since: first) == "1/10 power cycles", "no pace yet, no ETA")
    }

    @Test(arguments: [(0.84, "0.84 s"), (12.34, "12.3 s"), (63, "1 min 03 s"), (7500, "2 h 05 min")])
    func durations(seconds: Double, text: String) {
        #expect(ProgressText.duration(seconds) == text)
    }
}
