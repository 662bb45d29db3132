#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import HILResults
@testable import HILRunner
import Foundation
import Testing
import TestSupport

/// The one way a run writes its results: the writes while it goes on say it has not finished (so a runner
/// killed outright leaves a junit.xml with an error, not a short green run), the last write says why a run is
/// short even when the disk is full, and a signal after the results were written makes them say so.
@Suite struct ResultsGateTests {
    static func layout(_ directory: URL) throws -> ResultsLayout {
        let layout = ResultsLayout(directory)
        try layout.create()
        return layout
    }

    static func passed() -> Assembly {
        Assembly(context: SampleRecords.context, cases: [VerdictMerge.merge(record: SampleRecords.record("passes"), issues: [])])
    }

    @Test func aWriteWhileTheRunGoesOnSaysSoButIsNotKept() throws {
        let directory = try TemporaryDirectory.make("hil-gate")
        defer { TemporaryDirectory.remove(directory) }
        let layout = try Self.layout(directory)
        let gate = ResultsGate()
        gate.prepare(layout, context: SampleRecords.context)
        #expect(gate.latest?.cases.isEmpty == true, "before any case, an empty run")
        let unfinished = Assembly.Problem("hil run had not finished when it wrote this", outcome: .infrastructureError)
        try gate.write(Self.passed(), to: layout, unfinished: unfinished)
        let junit = try String(contentsOf: layout.junit, encoding: .utf8)
        #expect(junit.contains("hil run had not finished") && junit.contains("errors=\"1\""), "\(junit)")
        #expect(gate.latest?.problems.isEmpty == true, "the mark of an unfinished run is not kept")
        try gate.write(Self.passed(), to: layout)
        #expect(try String(contentsOf: layout.junit, encoding: .utf8).contains("errors=\"0\""))
    }

    /// A full disk, as the last write sees it: results.json cannot be written (here a directory is in its
    /// place, which no user, root included, can replace with a file). junit.xml still says why.
    @Test func aLastWriteThatFailsLeavesAJunitSayingSo() throws {
        let directory = try TemporaryDirectory.make("hil-gate")
        defer { TemporaryDirectory.remove(directory) }
        let layout = try Self.layout(directory)
        try FileManager.default.createDirectory(at: layout.resultsJSON.appendingPathComponent("occupied"), withIntermediateDirectories: true)
        let reserve = try ResultsReserve.make(in: layout, size: 4096)
        let written = HILRun.writeFinal(Self.passed(), to: layout, gate: ResultsGate(), reserve: reserve)
        #expect(written.summary.outcome == .infrastructureError)
        let problem = try #require(written.problems.first?.message)
        #expect(problem.hasPrefix("cannot write the results: ") && problem.contains("results.json"), "\(problem)")
        #expect(problem.hasSuffix("(written again after giving back the space set aside for them)"), "\(problem)")
        #expect(!FileManager.default.fileExists(atPath: layout.reserve.path), "the reserve was given back")
        let junit = try String(contentsOf: layout.junit, encoding: .utf8)
        #expect(junit.contains("errors=\"1\"") && junit.contains("cannot write the results"), "\(junit)")
    }

    /// A signal that comes after the results were written, while the run lets go of the bench: the run is
    /// interrupted all the same, its files written again saying so, and its status 128 + the signal.
    @Test func aSignalAfterTheResultsWereWrittenStillInterruptsTheRun() throws {
        let directory = try TemporaryDirectory.make("hil-gate")
        defer { TemporaryDirectory.remove(directory) }
        let layout = try Self.layout(directory)
        let control = RunControl()
        try control.gate.write(Self.passed(), to: layout)
        control.interrupts.enter(.writingResults)
        control.interrupts.receive(SIGINT, at: SampleRecords.start)
        let errors = ProgressTests.Lines()
        var printer = ProgressPrinter(RunOutput(isInteractive: false, out: { _ in }, err: errors.append))
        let report = RunReport(outcome: .passed, summary: Self.passed().summary, message: nil, results: layout)
        let finished = HILRun.finish(report, control: control, printer: &printer)
        #expect(finished.outcome == .interrupted)
        #expect(finished.exitStatus == 130)
        #expect(finished.summary?.passed == 1, "the case that passed is still there")
        let junit = try String(contentsOf: layout.junit, encoding: .utf8)
        #expect(junit.contains("type=\"interrupted\"") && junit.contains("SIGINT"), "\(junit)")
        #expect(errors.text.contains("hil run: interrupted by SIGINT") && errors.text.contains("while writing the results"), "\(errors.text)")
    }

    /// Without a signal, finishing changes nothing.
    @Test func withoutASignalTheReportIsKept() {
        var printer = ProgressPrinter(RunOutput(isInteractive: false, out: { _ in }, err: { _ in }))
        let report = RunReport(outcome: .productFailure, summary: nil, message: "m", results: nil)
        let finished = HILRun.finish(report, control: RunControl(), printer: &printer)
        #expect(finished.outcome == .productFailure && finished.exitStatus == 1 && finished.interruption == nil)
    }
}
