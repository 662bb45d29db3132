import Foundation

/// results.json: `{"schemaVersion": 1, "summary": {…}, "context": {…}, "cases": [{…record fields…,
/// "caseName", "displayName", "source", "issues", …}]}` — a merged record per test case and the summary.
public enum ResultsJSON {
    public static let schemaVersion = 1

    struct Document: Encodable {
        var schemaVersion: Int
        var summary: RunSummary
        var context: RunContext
        var cases: [CaseResult]
    }

    public static func render(_ assembly: Assembly) throws(ResultsError) -> Data {
        let document = Document(schemaVersion: schemaVersion, summary: assembly.summary, context: assembly.context, cases: assembly.cases)
        do { return try TestRecord.makeEncoder().encode(document) } catch {
            throw ResultsError("results.json", "cannot encode the results: \(error)")
        }
    }
}

/// Writes junit.xml, results.json and report.html for an assembly, each atomically. Called after every
/// finished case, so a run killed at any point leaves three valid files covering every finished case.
public enum ResultsWriter {
    public static func write(_ assembly: Assembly, to layout: ResultsLayout) throws(ResultsError) {
        try ResultsFile.write(JUnitReport.render(assembly), to: layout.junit)
        try ResultsFile.write(ResultsJSON.render(assembly), to: layout.resultsJSON)
        try ResultsFile.write(HTMLReport.render(assembly), to: layout.report)
    }
}
