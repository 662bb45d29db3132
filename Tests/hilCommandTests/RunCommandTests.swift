import Foundation
import Testing
@testable import hil

/// `hil run` and `hil report` through their entry points: bad input is exit 3, never a crash.
@Suite struct RunCommandTests {
    @Test(arguments: [
        ["--repeat", "0"],
        ["--repeat", "2.5"],
        ["--timeout", "-1"],
        ["--filter", "(unclosed"],
        ["--bogus"],
        ["--rig"],
    ])
    func badCommandLinesAreUsageErrors(words: [String]) async {
        #expect(await RunCommand.run(Arguments(words)) == .usageError)
    }

    @Test func aMissingRigOrPackageIsAUsageError() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("hil-cli-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        #expect(await RunCommand.run(Arguments(["--package", scratch.path, "--rig", "/nonexistent/rig.json", "--out", scratch.appendingPathComponent("out").path])) == .usageError)
        try Data("// swift-tools-version: 6.0\n".utf8).write(to: scratch.appendingPathComponent("Package.swift"))
        #expect(await RunCommand.run(Arguments(["--package", scratch.path, "--rig", "/nonexistent/rig.json", "--out", scratch.appendingPathComponent("out").path])) == .usageError)
    }

    @Test func defaultResultsDirectoryNamesTheRigAndTheTime() {
        let out = RunCommand.defaultOut(rig: URL(fileURLWithPath: "/x/rigs/lab-bench-1.json"))
        #expect(out.hasPrefix("results/lab-bench-1-"))
        #expect(out.count == "results/lab-bench-1-YYYYMMDD-HHMMSS".count)
    }

    @Test func reportOfAMissingDirectoryIsAUsageError() async {
        #expect(await ReportCommand.run(Arguments(["/nonexistent/results"])) == .usageError)
        #expect(await ReportCommand.run(Arguments([])) == .usageError)
    }

    @Test func reportReturnsTheRunsVerdict() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("hil-cli-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let records = scratch.appendingPathComponent("records")
        try FileManager.default.createDirectory(at: records, withIntermediateDirectories: true)
        let failed = #"{"testID":"M.S/t()/F.swift:1:1","name":"t()","suite":"S","accessory":"thermometer","arguments":[],"started":"2026-11-29T14:02:11Z","duration":1,"verdict":"failed","message":"awaited x, observed y","sourceLocation":"F.swift:9","timeline":[],"measurements":[],"properties":{}}"#
        try Data(failed.utf8).write(to: records.appendingPathComponent("t.json"))
        #expect(await ReportCommand.run(Arguments([scratch.path, "--quiet"])) == .productFailure)
        #expect(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("report.html").path))
        try Data("{".utf8).write(to: records.appendingPathComponent("broken.json"))
        #expect(await ReportCommand.run(Arguments([scratch.path, "--quiet"])) == .usageError, "a corrupt record is exit 3")
    }
}
