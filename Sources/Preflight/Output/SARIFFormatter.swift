import Foundation

/// SARIF 2.1.0 output (OASIS Static Analysis Results Interchange Format), as GitHub code scanning reads it.
///
/// One run; `tool.driver.rules` lists every rule checked with its default level, description, help and
/// source link (`helpUri`); each result names its rule by `ruleId` and `ruleIndex`. Severities map to
/// SARIF levels error, warning and note. Findings in an archive entry (APK, IPA) carry no region, since
/// their lines are not lines of the archive; the entry is named in `logicalLocations`.
enum SARIFFormatter {
    struct Log: Encodable {
        let schema = "https://json.schemastore.org/sarif-2.1.0.json"
        let version = "2.1.0"
        let runs: [Run]
        enum CodingKeys: String, CodingKey { case schema = "$schema", version, runs }
    }
    struct Run: Encodable {
        let tool: Tool
        let results: [Result]
        let invocations: [Invocation]
    }
    struct Tool: Encodable { let driver: Driver }
    struct Driver: Encodable {
        let name: String
        let version: String
        let informationUri: String
        let rules: [ReportingDescriptor]
    }
    struct Text: Encodable { let text: String }
    struct Help: Encodable { let text: String; let markdown: String }
    struct Configuration: Encodable { let level: String }
    struct RuleProperties: Encodable { let tags: [String] }
    struct ReportingDescriptor: Encodable {
        let id: String
        let name: String
        let shortDescription: Text
        let fullDescription: Text
        let help: Help
        let helpUri: String?
        let defaultConfiguration: Configuration
        let properties: RuleProperties
    }
    struct Result: Encodable {
        let ruleId: String
        let ruleIndex: Int
        let level: String
        let message: Text
        let locations: [Location]
    }
    struct Location: Encodable {
        let physicalLocation: PhysicalLocation
        let logicalLocations: [LogicalLocation]?
    }
    struct PhysicalLocation: Encodable {
        let artifactLocation: ArtifactLocation
        let region: Region?
    }
    struct ArtifactLocation: Encodable { let uri: String }
    struct Region: Encodable { let startLine: Int; let startColumn: Int? }
    struct LogicalLocation: Encodable { let fullyQualifiedName: String; let kind: String }
    struct Invocation: Encodable {
        let executionSuccessful: Bool
        let toolExecutionNotifications: [Notification]
    }
    struct Notification: Encodable { let level: String; let message: Text }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }

    static func render(_ report: Report) -> String {
        let rules = report.rulesChecked
        let descriptors = rules.map { rule in
            ReportingDescriptor(
                id: rule.id, name: rule.name, shortDescription: Text(text: rule.summary), fullDescription: Text(text: rule.help),
                help: Help(text: rule.help + "\n" + rule.sources.map { "Source: \($0.title) \($0.url)" }.joined(separator: "\n"),
                           markdown: rule.help + "\n\n" + rule.sources.map { "Source: [\($0.title)](\($0.url))" }.joined(separator: "  \n")),
                helpUri: rule.sources.first?.url, defaultConfiguration: Configuration(level: level(rule.severity)),
                properties: RuleProperties(tags: ["bluetooth", rule.platform.rawValue]))
        }
        let results = report.findings.map { finding in
            let location = finding.location
            let region = location.entry == nil ? location.line.map { Region(startLine: $0, startColumn: location.column) } : nil
            let logical = location.entry.map { entry in
                [LogicalLocation(fullyQualifiedName: entry + (location.line.map { ":\($0)" } ?? ""), kind: "resource")]
            }
            return Result(
                ruleId: finding.rule.id, ruleIndex: rules.firstIndex(of: finding.rule) ?? 0, level: level(finding.severity),
                message: Text(text: finding.message + (location.entry.map { " (in \($0))" } ?? "")),
                locations: [Location(physicalLocation: PhysicalLocation(artifactLocation: ArtifactLocation(uri: uri(location.file)), region: region),
                                     logicalLocations: logical)])
        }
        let run = Run(
            tool: Tool(driver: Driver(name: PreflightTool.name, version: PreflightTool.version, informationUri: PreflightTool.informationURI, rules: descriptors)),
            results: results,
            invocations: [Invocation(executionSuccessful: true, toolExecutionNotifications: report.notes.map { Notification(level: "note", message: Text(text: $0)) })])
        return JSONFormatter.encode(Log(runs: [run]))
    }

    /// A URI reference for a path: relative paths stay relative (GitHub resolves them against the checkout).
    static func uri(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ":")
        let slashed = path.replacingOccurrences(of: "\\", with: "/")
        var trimmed = slashed
        while trimmed.hasPrefix("./") { trimmed.removeFirst(2) }
        let encoded = trimmed.addingPercentEncoding(withAllowedCharacters: allowed) ?? trimmed
        return trimmed.hasPrefix("/") ? "file://" + encoded : encoded
    }
}
