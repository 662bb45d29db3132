import Foundation

/// `hil report DIR`: re-renders junit.xml, results.json and report.html from what a run left in DIR —
/// `.events.jsonl` (if present), `records/*.json` and `.run.json` — e.g. after a run was killed, or after
/// records were added by hand.
public enum ResultsRenderer {
    public struct Rendering: Sendable {
        public var assembly: Assembly
        /// Inputs that could not be used (each names its file): these make `hil report` exit 3.
        public var errors: [ResultsError]
        /// Things worth saying that do not fail the rendering (a run cut off mid-line).
        public var warnings: [String]
    }

    /// Reads the directory and writes the three files. Throws when the directory is missing or holds
    /// nothing to report, or when the files cannot be written.
    public static func rerender(_ directory: URL) throws(ResultsError) -> Rendering {
        let rendering = try assemble(directory)
        try ResultsWriter.write(rendering.assembly, to: ResultsLayout(directory))
        return rendering
    }

    /// Reads the directory into an assembly, as `rerender` does, without writing anything. Throws when the
    /// directory is missing or holds nothing to report.
    public static func assemble(_ directory: URL) throws(ResultsError) -> Rendering {
        let layout = ResultsLayout(directory)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: layout.directory.path, isDirectory: &isDirectory) else {
            throw ResultsError(layout.directory.path, "no such directory")
        }
        guard isDirectory.boolValue else { throw ResultsError(layout.directory.path, "not a directory") }
        let hasEvents = FileManager.default.fileExists(atPath: layout.events.path)
        let hasRecords = FileManager.default.fileExists(atPath: layout.records.path)
        guard hasEvents || hasRecords else {
            throw ResultsError(layout.directory.path, "holds neither .events.jsonl nor records/: not a hil results directory")
        }
        var errors: [ResultsError] = []
        var warnings: [String] = []
        var context = RunContext(started: Date())
        var haveContext = false
        if FileManager.default.fileExists(atPath: layout.runContext.path) {
            do {
                context = try RunContext.load(from: layout)
                haveContext = true
            } catch { errors.append(error) }
        } else {
            warnings.append("\(layout.runContext.path): missing; rig, host and commit are not known")
        }
        var run: SwiftTestingRun?
        var abort: ResultsAssembler.Abort?
        if hasEvents {
            let loaded = SwiftTestingRun.load(layout.events)
            run = loaded.run
            errors += loaded.errors
            if let line = loaded.incompleteLine {
                warnings.append("\(layout.events.path):\(line): the event stream ends in the middle of a line (the run was cut off); that line is ignored")
            }
            if loaded.run.runEnded == nil {
                abort = .init("the event stream has no end of run (the run was cut off)", at: loaded.run.lastEventTime ?? context.started)
                warnings.append("\(layout.events.path): the run did not finish: cases still running are infrastructure errors, tests never reached are skipped")
            }
        }
        let loaded: (records: [TestRecord], errors: [ResultsError]) = hasRecords ? TestRecord.loadAll(in: layout.records) : ([], [])
        errors += loaded.errors
        if !hasRecords { warnings.append("\(layout.records.path): missing; verdicts come from Swift Testing alone") }
        if !haveContext {
            context.started = [run?.runStarted, loaded.records.first?.started].compactMap { $0 }.min() ?? context.started
        }
        let problems = errors.map { Assembly.Problem($0.description, outcome: .usageError) }
        let assembly = ResultsAssembler.assemble(records: loaded.records, run: run, context: context, abort: abort, problems: problems)
        if assembly.cases.isEmpty && errors.isEmpty {
            throw ResultsError(layout.directory.path, "has no test case to report (no finished case in .events.jsonl, no record in records/)")
        }
        return Rendering(assembly: assembly, errors: errors, warnings: warnings)
    }
}
