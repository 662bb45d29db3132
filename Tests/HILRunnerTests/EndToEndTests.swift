#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import BenchOperations
import Foundation
@testable import HILResults
@testable import HILRunner
import Synchronization
import Testing
import TestSupport

/// `hil run --package` on the generated fixture package: build, lock, `swift test` with the event stream,
/// records joined, results written, exit status decided, a hang stopped at the deadline. SwiftPM builds and
/// runs the fixture: end-to-end, on real time. Each test's 5 min limit is the fixture's first build (a minute or
/// two on a loaded 2-core machine) and its `swift test` run, with room to spare.
@Suite(.serialized, .tags(.endToEnd), .enabled(if: FixturePackage.isAvailable, "needs a swift toolchain (HIL_SWIFT or swift on PATH)"))
struct EndToEndTests {
    final class Collected: Sendable {
        private let storage = Mutex<[String]>([])
        func append(_ text: String) { storage.withLock { $0.append(text) } }
        var text: String { storage.withLock { $0.joined() } }
    }

    struct Outcome {
        var report: RunReport
        var out: String
        var err: String
        var results: URL
        var lockDirectory: URL
        var package: URL
    }

    func run(filter: String?, timeout: Duration = .seconds(120), repeatCount: Int = 1, in directory: URL? = nil) async throws -> Outcome {
        let package = try await FixturePackage.built.value
        let scratch = try directory ?? TemporaryDirectory.make("hil-e2e")
        let out = Collected(), err = Collected()
        let options = RunOptions(rig: package.appendingPathComponent("rig.json"), package: package, filter: filter,
                                 out: scratch.appendingPathComponent("results"), repeatCount: repeatCount, timeout: timeout,
                                 command: "hil run --package fixture", swift: FixturePackage.swift ?? "swift",
                                 lockDirectory: scratch.appendingPathComponent("locks"))
        let report = await HILRun.run(options, output: RunOutput(isInteractive: false, out: out.append, err: err.append))
        return Outcome(report: report, out: out.text, err: err.text, results: options.out, lockDirectory: options.lockDirectory, package: package)
    }

    @Test(.timeLimit(.minutes(5)))
    func aPackageRunJoinsRecordsWithSwiftTestingAndWritesEveryResult() async throws {
        let run = try await run(filter: "PowerOffTests", repeatCount: 3)
        defer { TemporaryDirectory.remove(run.results.deletingLastPathComponent()) }
        let summary = try #require(run.report.summary, "no summary: \(run.err)")
        #expect(run.report.outcome == .infrastructureError, "the adapter's infrastructure error outranks the failure: \(run.out)")
        #expect((summary.total, summary.passed, summary.failed, summary.infrastructureErrors, summary.skipped) == (6, 3, 1, 1, 1))

        // Quiet output: one line per case, then the summary.
        let lines = run.out.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("case ") }.count == 6)
        #expect(lines.last?.hasPrefix("summary total=6 passed=3 failed=1 infrastructureError=1 skipped=1") == true)
        #expect(lines.contains { $0.hasPrefix("case failed ") && $0.hasSuffix(" PowerOffTests/powerOffWhileConnected [scale <script>]") }, "\(lines)")

        // Records met Swift Testing: the test saw the rig and repeat count, each accessory is a case.
        let layout = ResultsLayout(run.results)
        let data = try Data(contentsOf: layout.resultsJSON)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let cases = try #require(object["cases"] as? [[String: Any]])
        #expect(cases.count == 6)
        let rigPath = run.package.appendingPathComponent("rig.json").path
        let recorded = cases.filter { $0["source"] as? String == "record+swift-testing" }
        #expect(recorded.count == 4)
        #expect(recorded.allSatisfy { ($0["properties"] as? [String: String])?["rig.env"] == rigPath })
        #expect(recorded.allSatisfy { ($0["properties"] as? [String: String])?["repeat.env"] == "3" })
        let adapter = try #require(cases.first { ($0["testID"] as? String)?.contains("adapterStopsAnswering") == true })
        #expect(adapter["verdict"] as? String == "infrastructureError", "an #expect failure after the bench broke stays an infrastructure error")

        #if canImport(FoundationXML)
        let junit = try XMLDocument(contentsOf: layout.junit, options: [])
        let names = try junit.nodes(forXPath: "//testcase/@name").compactMap(\.stringValue)
        // One case name everywhere: junit.xml's is the CI line's.
        #expect(names.contains("PowerOffTests/powerOffWhileConnected [thermometer]"))
        #expect(names.contains("PowerOffTests/powerOffWhileConnected [scale <script>]"))
        let failure = try #require(try junit.nodes(forXPath: "//testcase[failure]").first as? XMLElement)
        // junit-10.xsd has no file/line on a testcase: the failure's message leads with them.
        #expect(failure.attribute(forName: "file") == nil)
        let failureMessage = try #require(try failure.nodes(forXPath: "failure/@message").first?.stringValue)
        // The fixture's hand-written record gives a bare `Suites.swift:30` (no path to make relative); never an absolute one.
        #expect(failureMessage.hasPrefix("Tests/ThermoSuites/Suites.swift:30: ") || failureMessage.hasPrefix("Suites.swift:30: "), "\(failureMessage)")
        #expect(!failureMessage.hasPrefix("/"), "\(failureMessage)")
        #expect(try junit.nodes(forXPath: "//testsuite/properties/property[@name='rig']/@value").first?.stringValue == "fixture-rig")
        #endif
        let html = try String(contentsOf: layout.report, encoding: .utf8)
        #expect(html.contains("<svg class=\"timeline\""))
        #expect(FileManager.default.fileExists(atPath: layout.attachments.appendingPathComponent("connect.txt").path))
        #expect(html.contains("<a href=\"attachments/connect.txt\">connect.txt</a>"))
        #expect(!html.contains("<script"))

        // The rig is free again, and the log kept swift's output.
        #expect(RigLock.currentHolder(rigName: "fixture-rig", directory: run.lockDirectory) == nil)
        #expect(FileManager.default.fileExists(atPath: layout.log.path))
    }

    @Test(.timeLimit(.minutes(5)), arguments: [
        ("powerOffWhileConnected", RunOutcome.productFailure),
        ("connectLatency|needsSwitch|plainWithoutRecord", RunOutcome.passed),
        ("NoSuchTest", RunOutcome.usageError),
    ])
    func exitStatusFollowsTheVerdicts(filter: String, expected: RunOutcome) async throws {
        let run = try await run(filter: filter)
        defer { TemporaryDirectory.remove(run.results.deletingLastPathComponent()) }
        #expect(run.report.outcome == expected, "\(run.out)\n\(run.err)")
        if expected == .usageError { #expect(run.err.contains("no test matched --filter 'NoSuchTest'")) }
    }

    @Test(.timeLimit(.minutes(5)))
    func aHangingTestIsStoppedAtTheDeadlineAndWhatFinishedIsKept() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let scratch = try TemporaryDirectory.make("hil-e2e")
        defer { TemporaryDirectory.remove(scratch) }
        let results = scratch.appendingPathComponent("results")
        // While the run hangs, the files already cover the case that finished: a kill now would keep it.
        // Polled (junit.xml is rewritten by another process's run as cases end) every 50 ms for at most 15 s:
        // the run's own 10 s deadline, and the fixture's start.
        let watcher = Task { () -> Int? in
            let junit = ResultsLayout(results).junit
            for _ in 0..<300 {
                #if canImport(FoundationXML)
                // The run's own testcase in the suite "hil" says it has not finished; the others are cases.
                if let document = try? XMLDocument(contentsOf: junit, options: []),
                   let count = try? document.nodes(forXPath: "//testsuite[@name!='hil']/testcase").count, count > 0,
                   (try? document.nodes(forXPath: "//testsuite[@name='hil']/testcase/error[contains(@message, 'had not finished')]").count) == 1 {
                    return count
                }
                #else
                if FileManager.default.fileExists(atPath: junit.path) { return 1 }
                #endif
                try await Task.sleep(for: .milliseconds(50))
            }
            return nil
        }
        let run = try await run(filter: "plainWithoutRecord|Hang", timeout: .seconds(10), in: scratch)
        #expect(try await watcher.value == 1, "junit.xml held the finished case, and said the run had not finished, while the hang went on")
        // The 10 s deadline, the stop's grace periods (5 s at most: the test process goes at SIGINT) and the
        // fixture's start: 30 s leaves room on a loaded machine, and none for a run that waited out the 120 s hang.
        #expect(clock.now - start < .seconds(30))
        #expect(run.report.outcome == .infrastructureError)
        let summary = try #require(run.report.summary)
        #expect(summary.passed == 1, "the case that finished before the hang is kept: \(run.out)")
        #expect(summary.infrastructureErrors == 1)
        let data = try Data(contentsOf: ResultsLayout(run.results).resultsJSON)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("did not finish: swift test did not finish within 10.0 s (--timeout) while Hang/hangs was running"))
        // Nothing of the fixture's test process is left running.
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.filter { name in
            guard Int32(name) != nil, let cmdline = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(name)/cmdline")) else { return false }
            return String(decoding: cmdline, as: UTF8.self).contains("ThermoHILTestsPackageTests")
        } ?? []
        #expect(leftovers.isEmpty, "processes left: \(leftovers)")
    }

    /// `--test-bundle`: the fixture's already-built bundle runs directly; `swift` names nothing, so a run
    /// that still built or went through SwiftPM could not start.
    @Test(.timeLimit(.minutes(5)))
    func aBuiltTestBundleRunsWithoutSwiftPM() async throws {
        let package = try await FixturePackage.built.value
        let bundle = package.appendingPathComponent(".build/debug/ThermoHILTestsPackageTests.xctest")
        let scratch = try TemporaryDirectory.make("hil-e2e")
        defer { TemporaryDirectory.remove(scratch) }
        let out = Collected(), err = Collected()
        let options = RunOptions(rig: package.appendingPathComponent("rig.json"), package: package, filter: "PowerOffTests",
                                 out: scratch.appendingPathComponent("results"), command: "hil run --test-bundle fixture",
                                 swift: scratch.appendingPathComponent("no-swift-here").path, lockDirectory: scratch.appendingPathComponent("locks"),
                                 testBundle: bundle)
        let report = await HILRun.run(options, output: RunOutput(isInteractive: false, out: out.append, err: err.append))
        let summary = try #require(report.summary, "no summary: \(err.text)")
        #expect((summary.total, summary.passed, summary.failed, summary.infrastructureErrors, summary.skipped) == (6, 3, 1, 1, 1),
                "the same cases as through swift test: \(out.text)")
        let log = try String(contentsOf: ResultsLayout(options.out).log, encoding: .utf8)
        #expect(log.hasPrefix("$ \(bundle.path) --no-parallel "), "the bundle itself ran first: \(log.prefix(300))")
        #expect(!log.contains("no-swift-here"))

        let missing = RunOptions(rig: package.appendingPathComponent("rig.json"), package: package, out: scratch.appendingPathComponent("results2"),
                                 lockDirectory: scratch.appendingPathComponent("locks"), testBundle: scratch.appendingPathComponent("absent.xctest"))
        let refused = await HILRun.run(missing, output: RunOutput(isInteractive: false, out: { _ in }, err: { _ in }))
        #expect(refused.outcome == .usageError)
        #expect(refused.message?.contains("--test-bundle \(scratch.appendingPathComponent("absent.xctest").path): no executable test bundle there") == true)
    }

    @Test func aHeldRigStopsTheRunAndNamesTheHolder() async throws {
        let package = try await FixturePackage.built.value
        let scratch = try TemporaryDirectory.make("hil-e2e")
        defer { TemporaryDirectory.remove(scratch) }
        let locks = scratch.appendingPathComponent("locks")
        let held = try await RigLock.acquire(rigName: "fixture-rig", command: "hil run --rig other-job", directory: locks)
        defer { held.release() }
        let err = Collected()
        let options = RunOptions(rig: package.appendingPathComponent("rig.json"), package: package, out: scratch.appendingPathComponent("results"),
                                 swift: FixturePackage.swift ?? "swift", lockDirectory: locks)
        let report = await HILRun.run(options, output: RunOutput(isInteractive: false, out: { _ in }, err: err.append))
        #expect(report.outcome == .infrastructureError)
        #expect(err.text.contains("rig fixture-rig is held by PID \(getpid()) on \(RunContext.hostName()) since "))
        #expect(err.text.contains("(hil run --rig other-job)"))
    }
}
