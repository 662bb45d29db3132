import Foundation
import Testing
import TestSupport
@testable import Preflight

/// SARIF output checked against the OASIS SARIF 2.1.0 schema by Python's `jsonschema` (a child process).
@Suite("SARIF output against the schema", .tags(.process))
struct SARIFSchemaTests {
    @Test func everyKindOfInputGivesALogValidAgainstTheSchema() async throws {
        var logs = [ReportFormat.sarif.render(try FormatterTests.mixedReport()),
                    ReportFormat.sarif.render(try Preflight.lintIOS(path: try Fixture.path("ios/Info-problems.plist"), options: IOSOptions())),
                    ReportFormat.sarif.render(try Preflight.lintAndroid(path: try Fixture.path("android/legacy-app.xml"), options: AndroidOptions())),
                    ReportFormat.sarif.render(try Lint.android(Lint.modernBody)),
                    ReportFormat.sarif.render(try FormatterTests.mixedReport(), root: SourceRoot(directory: "/nonexistent-root"))]
        logs += try SARIFTests.linelessReports().map { ReportFormat.sarif.render($0.1) }
        let outcome = try await SchemaValidator.validate(logs)
        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(outcome.output.isEmpty, "\(outcome.output)")
    }

    /// The validator is no rubber stamp: what the schema forbids, it reports.
    @Test func theValidatorRejectsWhatTheSchemaForbids() async throws {
        let valid = ReportFormat.sarif.render(try FormatterTests.mixedReport())
        let broken = [
            valid.replacingOccurrences(of: "\"startLine\" : 2", with: "\"startLine\" : 0"),
            valid.replacingOccurrences(of: "\"informationUri\" : \"https:", with: "\"informationUri\" : \"docs/"),
            valid.replacingOccurrences(of: "\"level\" : \"error\"", with: "\"level\" : \"fatal\""),
            valid.replacingOccurrences(of: "\"version\" : \"2.1.0\"", with: "\"version\" : \"2.0.0\""),
        ]
        for log in broken { #expect(log != valid, "the mutation did not apply: JSON layout changed?") }
        let outcome = try await SchemaValidator.validate(broken)
        #expect(outcome.status == 1)
        for (index, fragment) in ["0 is less than the minimum of 1", "is not a 'uri'", "'fatal' is not one of", "'2.0.0' is not one of"].enumerated() {
            #expect(outcome.output.contains("log\(index).sarif: ") && outcome.output.contains(fragment), "\(outcome.output)")
        }
    }
}
