#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HILResults

/// A run a signal cut short: its results say so (a run-level error naming the signal, when and in which
/// phase), and its report carries the interruption, whose exit status is 128 + the signal.
extension HILRun {
    /// A run interrupted before its tests started (taking the bench, building): the three files with the
    /// interruption and no case, the summary printed.
    static func interrupted(_ interruption: RunInterruption, context: RunContext, layout: ResultsLayout, control: RunControl,
                            printer: inout ProgressPrinter) -> RunReport {
        let assembly = rewrite(Assembly(context: context, cases: [], isComplete: false), interruption: interruption, layout: layout,
                               control: control)
        let summary = assembly.summary
        printer.summary(summary, layout: layout)
        return RunReport(outcome: summary.outcome, summary: summary, message: nil, results: layout, interruption: interruption)
    }

    /// `assembly` with `interruption`, written through the gate (a failure is one more problem).
    static func rewrite(_ assembly: Assembly, interruption: RunInterruption, layout: ResultsLayout, control: RunControl) -> Assembly {
        var assembly = assembly
        assembly.interruption = interruption
        assembly.isComplete = false
        do { try control.gate.write(assembly, to: layout) } catch {
            assembly.problems.append(.init("cannot write the results: \(error)", outcome: .infrastructureError))
        }
        return assembly
    }

    /// The last word on a run, once it has let go of the bench: a signal that came after its results were
    /// written (while it printed them or released the bench) still makes it an interrupted run, its results
    /// written again saying so; and a run stopped by a signal before it had results is interrupted all the same.
    static func finish(_ report: RunReport, control: RunControl, printer: inout ProgressPrinter) -> RunReport {
        guard report.interruption == nil, let interruption = control.interrupts.interruption() else { return report }
        var report = report
        report.interruption = interruption
        report.outcome = .interrupted
        if let layout = report.results, let latest = control.gate.latest {
            let assembly = rewrite(latest, interruption: interruption, layout: layout, control: control)
            report.summary = assembly.summary
        }
        printer.clearStatus()
        printer.output.err("hil run: \(interruption.message)\(report.results.map { "; results: \($0.directory.path)" } ?? "")\n")
        return report
    }
}
