import Foundation
import Testing
import TestSupport

/// `hil report --history` through the real binary: a nightly archive plus a corrupt run and a missing one
/// is two warning lines and exit 0 with history.json and history.html written into --out; nothing readable
/// is exit 3; a wrong command line is one line and exit 3; `hil report DIR` still re-renders one run.
@Suite(.tags(.process)) struct HistoryCommandTests {
    static func hil(_ arguments: [String]) async throws -> (status: Int32?, stdout: String, stderr: String) {
        try await HelpAndVersionTests.hil(arguments)
    }

    @Test func anArchiveWithACorruptAndAMissingRunWritesTheHistoryAndWarns() async throws {
        let scratch = try TemporaryDirectory.make("hil-history-cli")
        defer { TemporaryDirectory.remove(scratch) }
        let archive = scratch.appendingPathComponent("nightly", isDirectory: true)
        try SampleHistory.write(into: archive)
        let corrupt = try SampleHistory.writeCorrupt(into: archive)
        let missing = scratch.appendingPathComponent("gone")
        let out = scratch.appendingPathComponent("out/history", isDirectory: true)
        let ran = try await Self.hil(["report", "--history", archive.path, missing.path, "--out", out.path])
        #expect(ran.status == 0, "\(ran.stderr)")
        let warnings = ran.stderr.split(separator: "\n").map(String.init)
        #expect(warnings.count == 2, "\(ran.stderr)")
        #expect(warnings.contains { $0.hasPrefix("hil report: warning: skipping \(corrupt.path): ") }, "\(ran.stderr)")
        #expect(warnings.contains { $0 == "hil report: warning: skipping \(missing.path): no such directory" }, "\(ran.stderr)")
        #expect(ran.stdout.contains("5 runs, 6 tests: 2 flaky, 2 failing"), "\(ran.stdout)")
        let data = try Data(contentsOf: out.appendingPathComponent("history.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["version"] as? Int == 1)
        #expect((json["runs"] as? [[String: Any]])?.compactMap { $0["commit"] as? String } == SampleHistory.commits)
        let html = try String(contentsOf: out.appendingPathComponent("history.html"), encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.hasSuffix("</html>\n"))
        #expect(FileManager.default.fileExists(atPath: archive.appendingPathComponent(SampleHistory.names[3]).path))
        #expect(!FileManager.default.fileExists(atPath: archive.appendingPathComponent("\(SampleHistory.names[3])/results.json").path),
                "the history writes nothing into the runs")
    }

    @Test func theCurrentDirectoryIsTheDefaultOut() async throws {
        let scratch = try TemporaryDirectory.make("hil-history-cli")
        defer { TemporaryDirectory.remove(scratch) }
        let runs = try SampleHistory.write(into: scratch.appendingPathComponent("nightly", isDirectory: true))
        let ran = await runProgramCapturing("/bin/sh", ["-c", "cd \"$1\" && exec \"$2\" report --history \"$3\"", "sh", scratch.path, try ChildProgram.hilBinary(), runs[0].path])
        #expect(ran.termination?.exitStatus == 0, "\(ran.stderr)")
        #expect(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("history.json").path))
        #expect(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("history.html").path))
    }

    @Test func noReadableRunIsExitThreeInOneLinePerProblem() async throws {
        let scratch = try TemporaryDirectory.make("hil-history-cli")
        defer { TemporaryDirectory.remove(scratch) }
        let corrupt = try SampleHistory.writeCorrupt(into: scratch)
        let ran = try await Self.hil(["report", "--history", corrupt.path, "--out", scratch.path])
        #expect(ran.status == 3)
        let lines = ran.stderr.split(separator: "\n")
        #expect(lines.count == 2 && lines.last == "hil report: no run could be read from \(corrupt.path)", "\(ran.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("history.json").path))
    }

    @Test(arguments: [["--history"], ["--history", "--out"], ["--history", "x", "--bogus"], ["--history", "x", "--out="]])
    func aWrongCommandLineIsOneLineAndExitThree(words: [String]) async throws {
        let ran = try await Self.hil(["report"] + words)
        #expect(ran.status == 3)
        #expect(ran.stderr.split(separator: "\n").count == 1 && ran.stderr.contains("see 'hil report --help'"), "\(ran.stderr)")
    }

    @Test func anUnwritableOutIsExitThree() async throws {
        let scratch = try TemporaryDirectory.make("hil-history-cli")
        defer { TemporaryDirectory.remove(scratch) }
        let runs = try SampleHistory.write(into: scratch.appendingPathComponent("nightly", isDirectory: true))
        let file = scratch.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let ran = try await Self.hil(["report", "--history", runs[0].path, "--out", file.path])
        #expect(ran.status == 3)
        #expect(ran.stderr.split(separator: "\n").count == 1 && ran.stderr.hasPrefix("hil report: \(file.path)"), "\(ran.stderr)")
    }

    @Test func helpShowsBothFormsAndReportOfOneRunStillWorks() async throws {
        let help = try await Self.hil(["report", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("hil report DIR [--quiet]") && help.stdout.contains("hil report --history DIR [DIR...] [--out DIR]"))
        let scratch = try TemporaryDirectory.make("hil-history-cli")
        defer { TemporaryDirectory.remove(scratch) }
        let runs = try SampleHistory.write(into: scratch)
        let single = try await Self.hil(["report", runs[3].path, "--quiet"])
        #expect(single.status == 2, "run #4 has an infrastructure error: \(single.stdout) \(single.stderr)")
        #expect(FileManager.default.fileExists(atPath: runs[3].appendingPathComponent("results.json").path))
    }
}
