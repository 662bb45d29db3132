import Foundation
import HILResults

/// `hil report DIR`: re-renders report.html, junit.xml and results.json from a results directory's
/// `.events.jsonl` and `records/*.json`; `hil report --history DIR…`: the history of many runs.
enum ReportCommand {
    static let usage = """
    usage: hil report DIR [--quiet]
           hil report --history DIR [DIR...] [--out DIR]

    Re-renders DIR/report.html, DIR/junit.xml and DIR/results.json from DIR/.events.jsonl (if present),
    DIR/records/*.json and DIR/.run.json — after a run was cut off, or records were changed.
    exit status: the run's verdict (0 passed, 1 product failure, 2 infrastructure error);
                 3 when DIR is missing or an input file is unusable (each is named on stderr)

    --history writes history.html and history.json into --out (default: the current directory) from many
    runs, oldest first by their start: pass rate per test per run, where each failing test started failing
    (run and commit), flaky tests (passed and failed on one commit), connect/discovery p95 per run.
    Each DIR is a results directory (hil run --out) or a directory of them, one level deep (a nightly
    archive such as results/RIG/ of scripts/nightly); a run is read from its results.json, else from its
    records. Nothing in DIR is written. A DIR or run that cannot be read is a warning and is left out.
    exit status: 0 when the history was written, whatever the runs' verdicts; 3 for a wrong command line,
                 when no run could be read, or when --out cannot be written
    """

    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        if arguments.flag("history") { return ReportHistoryCommand.run(arguments) }
        let directory: String
        let quiet: Bool
        do {
            quiet = arguments.flag("quiet")
            directory = try arguments.required("the results directory")
            try arguments.finish()
        } catch {
            return Diagnostics.usageError("report", error)
        }
        let rendering: ResultsRenderer.Rendering
        do {
            rendering = try ResultsRenderer.rerender(URL(fileURLWithPath: directory, isDirectory: true))
        } catch {
            return Diagnostics.fail("report", error.description.escapingControlCharacters, .usageError)
        }
        for warning in rendering.warnings {
            StandardStreams.error("hil report: warning: \(warning.escapingControlCharacters)\n")
        }
        for error in rendering.errors { StandardStreams.error("hil report: \(error.description.escapingControlCharacters)\n") }
        let summary = rendering.assembly.summary
        let layout = ResultsLayout(URL(fileURLWithPath: directory, isDirectory: true))
        if quiet {
            print("summary total=\(summary.total) passed=\(summary.passed) failed=\(summary.failed) infrastructureError=\(summary.infrastructureErrors) skipped=\(summary.skipped) exit=\(summary.exitStatus)")
        } else {
            print("\(summary.counts) (\(summary.total) test cases) — \(summary.outcome)")
            print("wrote \(layout.report.path), \(layout.junit.lastPathComponent), \(layout.resultsJSON.lastPathComponent)")
        }
        return ExitStatus(rawValue: summary.outcome.rawValue) ?? .infrastructureError
    }
}
