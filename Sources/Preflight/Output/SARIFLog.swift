/// The SARIF 2.1.0 objects `SARIFFormatter` writes: the subset of the OASIS schema that GitHub code scanning reads.
///
/// Optional properties left nil are omitted from the JSON, as the schema allows.
enum SARIFLog {
    /// The `sarifLog` root object.
    struct Log: Encodable {
        let schema = "https://json.schemastore.org/sarif-2.1.0.json"
        let version = "2.1.0"
        let runs: [Run]
        enum CodingKeys: String, CodingKey { case schema = "$schema", version, runs }
    }
    /// One run; `originalUriBaseIds` says where `%SRCROOT%` is on the machine that linted.
    struct Run: Encodable {
        let tool: Tool
        let originalUriBaseIds: [String: ArtifactLocation]?
        let results: [Result]
        let invocations: [Invocation]
    }
    struct Tool: Encodable { let driver: Driver }
    /// The tool; `informationUri` must be an absolute URI.
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
    /// One rule, with the official documentation page for what it checks as `helpUri`.
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
        let region: Region
    }
    /// A URI, relative to `uriBaseId` when that is set.
    struct ArtifactLocation: Encodable {
        let uri: String
        let uriBaseId: String?
    }
    /// 1-based; `startColumn` only where the input has columns.
    struct Region: Encodable { let startLine: Int; let startColumn: Int? }
    struct LogicalLocation: Encodable { let fullyQualifiedName: String; let kind: String }
    struct Invocation: Encodable {
        let executionSuccessful: Bool
        let toolExecutionNotifications: [Notification]
    }
    struct Notification: Encodable { let level: String; let message: Text }
}
