#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

extension RunResults {
    /// The files of the run at `layout` the history would read — results.json; or, without one, `.run.json`,
    /// `.events.jsonl` and each `records/*.json` — each checked by its size against `limits.inputFileBytes`
    /// before any is read. The error names the first file past it, its size and the limit.
    static func checkSizes(_ layout: ResultsLayout, limits: HistoryLimits) throws(ResultsError) {
        var files = [layout.resultsJSON]
        if !FileManager.default.fileExists(atPath: layout.resultsJSON.path) {
            let records = ((try? FileManager.default.contentsOfDirectory(atPath: layout.records.path)) ?? [])
                .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
                .map { layout.records.appendingPathComponent($0) }
            files = [layout.runContext, layout.events] + records
        }
        for url in files {
            var status = stat()
            guard stat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            if status.st_size > limits.inputFileBytes {
                throw ResultsError(url.path, "\(status.st_size) bytes, more than HistoryLimits.inputFileBytes = \(limits.inputFileBytes)")
            }
        }
    }

    /// The run with only what a history uses of it: each record's identity (test ID, name, suite, accessory,
    /// arguments, repetition) and verdict, and the p95 of each measurement over the run (`measurementPoints`).
    /// Messages, timelines, properties, issues, attachments and samples — most of a run's bytes — are dropped
    /// as soon as the run is read, so a history of many runs holds tests × runs of verdicts and series × runs of
    /// points, not the runs.
    func keepingWhatHistoryUses() -> RunResults {
        var kept = self
        kept.measurementPoints = measurementPoints ?? MeasurementSeries.points(cases)
        kept.cases = cases.map { result in
            let full = result.record
            let record = TestRecord(testID: full.testID, name: full.name, suite: full.suite, accessory: full.accessory, arguments: full.arguments,
                                    started: full.started, duration: full.duration, verdict: full.verdict, repetition: full.repetition)
            return CaseResult(record: record, caseName: result.caseName, displayName: result.displayName, source: result.source)
        }
        return kept
    }
}
