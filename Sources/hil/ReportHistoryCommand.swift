import Foundation
import HILResults

/// `hil report --history DIR [DIR…] [--out DIR]`: history.json and history.html from many results
/// directories (see `ReportCommand.usage`).
enum ReportHistoryCommand {
    /// `arguments` without `--history`, which `ReportCommand` took.
    static func run(_ arguments: Arguments) -> ExitStatus {
        var arguments = arguments
        let out: String
        var inputs: [String] = []
        do {
            out = try arguments.option("out") ?? "."
            while let word = arguments.positional() { inputs.append(word) }
            try arguments.finish()
            if inputs.isEmpty { throw UsageError("--history needs at least one results directory") }
            if out.isEmpty { throw UsageError("--out needs a directory") }
        } catch {
            return Diagnostics.usageError("report", error)
        }
        let loaded = HistoryInputs.load(inputs.map { URL(fileURLWithPath: $0, isDirectory: true) })
        for warning in loaded.warnings { StandardStreams.error("hil report: warning: \(warning)\n") }
        guard !loaded.runs.isEmpty else {
            return Diagnostics.fail("report", "no run could be read from \(inputs.joined(separator: ", "))", .usageError)
        }
        let history = RunHistory(loaded.runs)
        let files: (json: URL, html: URL)
        do { files = try HistoryReport.write(history, to: URL(fileURLWithPath: out, isDirectory: true)) } catch {
            return Diagnostics.fail("report", error.description, .usageError)
        }
        print("\(history.runs.count) run\(history.runs.count == 1 ? "" : "s"), \(history.tests.count) tests: \(history.flakyTests.count) flaky, \(history.failingTests.count) failing")
        print("wrote \(files.html.path), \(files.json.lastPathComponent)")
        return .success
    }
}
