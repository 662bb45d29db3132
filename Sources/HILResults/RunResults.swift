import Foundation

/// One run read back from its results directory, for `hil report --history`: its context (`.run.json`:
/// when, which commit, rig and host), its merged cases and its summary. Nothing in the directory is written.
///
/// The source is the run's `results.json` (what `hil run` or `hil report` last wrote: the records joined
/// with Swift Testing's verdicts) when it has one; otherwise the directory is assembled in memory as
/// `hil report DIR` would (`.events.jsonl`, `records/*.json`, `.run.json`). Either way, an input that
/// cannot be used makes the whole run unreadable: a history built on half a run would misreport it.
public struct RunResults: Sendable {
    /// Which file the cases came from.
    public enum Source: String, Sendable, Hashable {
        case resultsJSON = "results.json"
        /// `.events.jsonl` and `records/*.json`, assembled in memory.
        case records
    }

    public var layout: ResultsLayout
    public var context: RunContext
    public var cases: [CaseResult]
    public var summary: RunSummary
    public var source: Source
    /// Worth saying, without making the run unusable: `.run.json` missing (no commit), a run cut off.
    public var warnings: [String]
    /// The run's measurement points, computed when its cases' measurements were dropped
    /// (`keepingWhatHistoryUses`); nil while the cases hold them.
    var measurementPoints: [MeasurementSeries.Key: MeasurementSeries.Point]?

    public init(layout: ResultsLayout, context: RunContext, cases: [CaseResult], summary: RunSummary, source: Source, warnings: [String] = []) {
        self.layout = layout
        self.context = context
        self.cases = cases
        self.summary = summary
        self.source = source
        self.warnings = warnings
    }

    /// Reads one results directory, none of whose files may be larger than `limits.inputFileBytes`. The error
    /// names the file that cannot be used and why.
    public static func load(_ directory: URL, limits: HistoryLimits = .standard) throws(ResultsError) -> RunResults {
        let layout = ResultsLayout(directory)
        try checkSizes(layout, limits: limits)
        if FileManager.default.fileExists(atPath: layout.resultsJSON.path) { return try loadResultsJSON(layout, limits: limits) }
        let rendering = try ResultsRenderer.assemble(layout.directory)
        if let first = rendering.errors.first {
            let more = rendering.errors.count - 1
            throw ResultsError(first.file, line: first.line, first.message + (more > 0 ? " (and \(more) more unusable file\(more == 1 ? "" : "s"))" : ""))
        }
        let assembly = rendering.assembly
        return RunResults(layout: layout, context: assembly.context, cases: assembly.cases, summary: assembly.summary, source: .records,
                          warnings: rendering.warnings)
    }

    /// What results.json holds that the history reads (`ResultsJSON`).
    struct Stored: Decodable {
        var schemaVersion: Int
        var summary: RunSummary
        var context: RunContext
        var cases: [CaseResult]
    }

    static func loadResultsJSON(_ layout: ResultsLayout, limits: HistoryLimits) throws(ResultsError) -> RunResults {
        let url = layout.resultsJSON
        let data = try RegularFile.contents(of: url, limit: limits.inputFileBytes, limitName: "HistoryLimits.inputFileBytes")
        if data.isEmpty { throw ResultsError(url.path, "is empty") }
        let stored: Stored
        do { stored = try TestRecord.makeDecoder().decode(Stored.self, from: data) } catch let error as DecodingError {
            throw ResultsError(url.path, "not valid results: \(TestRecord.describe(error))")
        } catch {
            throw ResultsError(url.path, "not valid results: \(error)")
        }
        guard stored.schemaVersion == ResultsJSON.schemaVersion else {
            throw ResultsError(url.path, "schemaVersion \(stored.schemaVersion) is not one this hil reads (\(ResultsJSON.schemaVersion))")
        }
        return RunResults(layout: layout, context: stored.context, cases: stored.cases, summary: stored.summary, source: .resultsJSON)
    }
}
