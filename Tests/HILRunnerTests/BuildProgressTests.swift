import Foundation
@testable import HILResults
@testable import HILRunner
import Rigs
import Testing
import TestSupport

/// Without a terminal (CI, `--quiet`) the status line is not drawn, so a long build says it goes on, on
/// standard error, instead of a silent minute.
@Suite struct BuildProgressTests {
    @Test func withoutATerminalABuildSaysItGoesOnEverySoOften() async throws {
        let directory = try TemporaryDirectory.make("hil-build")
        defer { TemporaryDirectory.remove(directory) }
        // A stand-in for `swift build`: 3 s of nothing, then success.
        let fakeSwift = directory.appendingPathComponent("swift")
        try Data("#!/bin/sh\nsleep 3\n".utf8).write(to: fakeSwift)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fakeSwift.path)
        let layout = ResultsLayout(directory.appendingPathComponent("results", isDirectory: true))
        try FileManager.default.createDirectory(at: layout.directory, withIntermediateDirectories: true)
        let rigURL = repositoryRoot.appendingPathComponent("rigs/simulated.json")
        let invocation = SwiftTestInvocation(suites: .package(directory), filter: nil, layout: layout, rig: rigURL, swift: fakeSwift.path)
        let plan = RunPlan(suites: invocation.suites, rigURL: rigURL, rig: try Rig.load(path: rigURL.path), layout: layout)
        let out = ProgressTests.Lines(), err = ProgressTests.Lines()
        var printer = ProgressPrinter(RunOutput(isInteractive: false, out: out.append, err: err.append))
        let problem = await HILRun.build(invocation, plan: plan, deadline: .now + .seconds(60), timeoutText: "60 s",
                                         pollInterval: .milliseconds(100), printer: &printer, noteEverySeconds: 1)
        #expect(problem == nil)
        let prefix = "hil run: building the tests of \(directory.lastPathComponent)… "
        let notes = err.text.split(separator: "\n").filter { $0.hasPrefix(prefix) }
        // A note per interval reached (a loaded machine may skip a tick, never repeat or go back): whole
        // seconds, rising, each naming the log.
        let seconds = notes.compactMap { Int($0.dropFirst(prefix.count).prefix { $0 != " " }) }
        #expect(!notes.isEmpty, "no note during a 3 s build: \(err.text)")
        #expect(seconds.count == notes.count && seconds.allSatisfy { $0 >= 1 && $0 <= 3 }, "\(err.text)")
        #expect(seconds == seconds.sorted() && Set(seconds).count == seconds.count, "\(err.text)")
        #expect(notes.allSatisfy { $0.contains(" s (log: \(layout.log.path))") }, "\(err.text)")
        #expect(out.text.isEmpty, "standard output keeps only case and summary lines: \(out.text)")
    }
}
