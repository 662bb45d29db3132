import Foundation

/// JSON output: one object with the file, counts, findings (rule, location, message, help, sources) and notes.
enum JSONFormatter {
    struct Document: Encodable {
        struct Counts: Encodable {
            let error: Int, warning: Int, info: Int
        }
        struct Item: Encodable {
            let ruleId: String
            let ruleName: String
            let severity: Severity
            let message: String
            let file: String
            let entry: String?
            let line: Int?
            let column: Int?
            let help: String
            let sources: [RuleSource]
        }
        let tool: String
        let version: String
        let platform: Platform
        let file: String
        let entry: String?
        let counts: Counts
        let findings: [Item]
        let notes: [String]
        let rulesChecked: [String]
    }

    static func render(_ report: Report) -> String {
        let document = Document(
            tool: PreflightTool.name, version: PreflightTool.version, platform: report.platform,
            file: report.location.file, entry: report.location.entry,
            counts: .init(error: report.findings(.error).count, warning: report.findings(.warning).count, info: report.findings(.info).count),
            findings: report.findings.map {
                Document.Item(ruleId: $0.rule.id, ruleName: $0.rule.name, severity: $0.severity, message: $0.message,
                              file: $0.location.file, entry: $0.location.entry, line: $0.location.line, column: $0.location.column,
                              help: $0.rule.help, sources: $0.rule.sources)
            },
            notes: report.notes, rulesChecked: report.rulesChecked.map(\.id))
        return encode(document)
    }

    /// Pretty, key-sorted JSON; `Encodable` values made only of strings and numbers cannot fail to encode.
    static func encode<Value: Encodable>(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
        } catch {
            return "{\"error\": \"could not encode the report\"}\n"
        }
    }
}
