import Foundation

/// Writes the history of many runs (`hil report --history`): `history.json` and `history.html` in one
/// directory, each atomically.
public enum HistoryReport {
    /// The two files for `out`.
    public static func files(in out: URL) -> (json: URL, html: URL) {
        (out.appendingPathComponent("history.json"), out.appendingPathComponent("history.html"))
    }

    /// Creates `out` if needed and writes both files, history.html within `limits`; the error names what could
    /// not be written.
    @discardableResult
    public static func write(_ history: RunHistory, to out: URL, limits: HistoryLimits = .standard) throws(ResultsError) -> (json: URL, html: URL) {
        do { try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true) } catch {
            throw ResultsError(out.path, "cannot create the directory: \(ResultsLayout.reason(error))")
        }
        let files = files(in: out)
        try ResultsFile.write(HistoryJSON.render(history), to: files.json)
        try ResultsFile.write(HistoryHTML.render(history, limits: limits), to: files.html)
        return files
    }
}
