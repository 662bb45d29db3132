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
        // A stand-in for `swift build`: 2.5 s of nothing, then success.
        let fakeSwift = directory.appendingPathComponent("swift")
        try Data("#!/bin/sh\nsleep 2.5\n".utf8).write(to: fakeSwift)
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
        let notes = err.text.split(separator: "\n").filter { $0.hasPrefix("hil run: building the tests of \(directory.lastPathComponent)… ") }
        #expect(notes.count >= 2, "\(err.text)")
        #expect(notes.first?.contains("1 s (log: ") == true, "\(err.text)")
        #expect(out.text.isEmpty, "standard output keeps only case and summary lines: \(out.text)")
    }
}
