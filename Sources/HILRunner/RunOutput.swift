#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HILResults

/// Where a run prints: `out` for progress and results (standard output), `err` for notes and errors
/// (standard error). Tests pass closures that collect the text.
package struct RunOutput: Sendable {
    package var out: @Sendable (String) -> Void
    package var err: @Sendable (String) -> Void
    /// Whether `out` is a terminal a person watches (progress redrawn in place) or not (one
    /// machine-readable line per case).
    package var isInteractive: Bool

    package init(isInteractive: Bool, out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
        self.isInteractive = isInteractive
        self.out = out
        self.err = err
    }

    /// Standard output and error; interactive when standard output is a terminal and `quiet` is false.
    /// Writes ignore a closed reader (`hil run | head`): the run goes on and finishes its results
    /// (SIGPIPE is ignored by `hil run`).
    package static func standard(quiet: Bool) -> RunOutput {
        RunOutput(isInteractive: !quiet && isatty(STDOUT_FILENO) == 1,
                  out: { text in writeAll(STDOUT_FILENO, text) },
                  err: { text in writeAll(STDERR_FILENO, text) })
    }

    static func writeAll(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// Prints a run as it goes. Interactive: a line per finished test case with its elapsed time
/// (`✔ PowerOffTests/powerOffWhileConnected [thermometer] 0.84 s`), the message of a failure under it, and
/// a status line redrawn in place: the case running, its loop counter and ETA, the run's counter.
/// Otherwise: `case <verdict> <seconds> <case name>` per case, followed for every case that did not pass by
/// an indented `  reason: [bench: |skipped: ]file:line: message` line (what was awaited and what came, as the
/// record's message says it), `suite <verdict> <suite>` (and its reason) for a suite skipped as a whole, and
/// `summary …` at the end; nothing else on standard output. The case name is `CaseResult.displayName`, as
/// everywhere else; suite lines are not cases, so the `case` lines add up to the summary's total.
struct ProgressPrinter {
    let output: RunOutput
    /// The package whose suites run: failure locations are shown relative to it.
    var packageRoot: String?
    private var statusShown = false

    init(_ output: RunOutput) { self.output = output }

    mutating func caseFinished(_ result: CaseResult) {
        let record = result.record
        if output.isInteractive {
            clearStatus()
            let name = result.isSuiteNote ? "suite \(result.displayName)" : result.displayName
            var line = "\(Self.symbol(record.verdict)) \(name) \(ProgressText.duration(record.duration))"
            if let reason = Self.reason(result, packageRoot: packageRoot) { line += "\n    \(reason)" }
            output.out(line + "\n")
        } else {
            var line = result.isSuiteNote
                ? "suite \(record.verdict.rawValue) \(result.displayName)\n"
                : "case \(record.verdict.rawValue) \(ReportNumber.text(record.duration, digits: 3)) \(result.displayName)\n"
            if let reason = Self.reason(result, packageRoot: packageRoot) { line += "  reason: \(reason)\n" }
            output.out(line)
        }
    }

    /// Why a case did not pass, in one line: its kind (bench failure, skip), where, and the first line of
    /// its message; nil for a pass or a case without a message.
    static func reason(_ result: CaseResult, packageRoot: String?) -> String? {
        let record = result.record
        guard record.verdict != .passed, let message = record.message, !message.isEmpty else { return nil }
        let location = result.failureLocation(packageRoot: packageRoot).map { "\($0): " } ?? ""
        let kind = record.verdict == .skipped ? "skipped: " : (record.verdict == .infrastructureError ? "bench: " : "")
        return "\(kind)\(location)\(JUnitReport.firstLine(message))"
    }

    /// The transient status line (interactive only).
    mutating func status(_ text: String) {
        guard output.isInteractive else { return }
        let width = 120
        let clipped = text.count > width ? String(text.prefix(width - 1)) + "…" : text
        output.out("\r\u{1B}[2K\(clipped)")
        statusShown = true
    }

    mutating func clearStatus() {
        guard output.isInteractive, statusShown else { return }
        output.out("\r\u{1B}[2K")
        statusShown = false
    }

    /// A note for people: a line on standard output when interactive, else on standard error.
    mutating func note(_ text: String) {
        if output.isInteractive {
            clearStatus()
            output.out(text + "\n")
        } else {
            output.err("hil run: \(text)\n")
        }
    }

    mutating func summary(_ summary: RunSummary, layout: ResultsLayout) {
        clearStatus()
        if output.isInteractive {
            var text = "\n\(summary.counts) (\(summary.total) test case\(summary.total == 1 ? "" : "s")) in \(ProgressText.duration(summary.duration))"
            text += " — \(summary.outcome.description), exit \(summary.exitStatus)\n"
            for problem in summary.problems { text += "  ! \(problem)\n" }
            text += "results: \(layout.report.path)\n"
            output.out(text)
        } else {
            for problem in summary.problems { output.err("hil run: \(problem)\n") }
            output.out("summary total=\(summary.total) passed=\(summary.passed) failed=\(summary.failed) "
                + "infrastructureError=\(summary.infrastructureErrors) skipped=\(summary.skipped) "
                + "seconds=\(ReportNumber.text(summary.duration, digits: 1)) exit=\(summary.exitStatus) results=\(layout.directory.path)\n")
        }
    }

    static func symbol(_ verdict: TestRecord.Verdict) -> String {
        switch verdict {
        case .passed: return "✔"
        case .failed: return "✘"
        case .infrastructureError: return "⚠"
        case .skipped: return "➜"
        }
    }
}
