import Foundation

/// SARIF 2.1.0 output (OASIS Static Analysis Results Interchange Format), as GitHub code scanning reads it.
///
/// One run; `tool.driver.rules` lists every rule checked with its default level, description, help and
/// the official documentation page as `helpUri`; each result names its rule by `ruleId` and `ruleIndex`.
/// Severities map to SARIF levels error, warning and note. Artifact URIs are relative to a `SourceRoot`
/// (`uriBaseId` `%SRCROOT%`, whose `file://` URI `originalUriBaseIds` gives); a file outside the root
/// gets an absolute `file://` URI. Every result has a region: its line where the input has lines, else
/// line 1 (binary plist, binary XML, and archive entries, whose lines are not lines of the archive; the
/// entry and its line are named in `logicalLocations`).
enum SARIFFormatter {
    typealias Log = SARIFLog

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }

    /// Renders `report` with URIs relative to `root` (default: the repository holding the input).
    static func render(_ report: Report, root: SourceRoot? = nil) -> String {
        let root = root ?? SourceRoot.repository(containing: report.location.file)
        let rules = report.rulesChecked
        let results = report.findings.map { finding in
            Log.Result(
                ruleId: finding.rule.id, ruleIndex: rules.firstIndex(of: finding.rule) ?? 0, level: level(finding.severity),
                message: Log.Text(text: finding.message + (finding.location.entry.map { " (in \($0))" } ?? "")),
                locations: [location(finding.location, root: root)])
        }
        let usesRoot = results.contains { $0.locations.contains { $0.physicalLocation.artifactLocation.uriBaseId != nil } }
        let driver = Log.Driver(name: PreflightTool.name, version: PreflightTool.version,
                                informationUri: PreflightTool.informationURI(for: report.platform), rules: rules.map(descriptor))
        let run = Log.Run(
            tool: Log.Tool(driver: driver),
            originalUriBaseIds: usesRoot ? [SourceRoot.uriBaseId: Log.ArtifactLocation(uri: root.fileURI, uriBaseId: nil)] : nil,
            results: results,
            invocations: [Log.Invocation(executionSuccessful: true, toolExecutionNotifications: report.notes.map {
                Log.Notification(level: "note", message: Log.Text(text: $0))
            })])
        return JSONFormatter.encode(Log.Log(runs: [run]))
    }

    /// A rule's `reportingDescriptor`.
    static func descriptor(_ rule: Rule) -> Log.ReportingDescriptor {
        Log.ReportingDescriptor(
            id: rule.id, name: rule.name, shortDescription: Log.Text(text: rule.summary), fullDescription: Log.Text(text: rule.help),
            help: Log.Help(text: rule.help + "\n" + rule.sources.map { "Source: \($0.title) \($0.url)" }.joined(separator: "\n"),
                           markdown: rule.help + "\n\n" + rule.sources.map { "Source: [\($0.title)](\($0.url))" }.joined(separator: "  \n")),
            helpUri: rule.sources.first?.url, defaultConfiguration: Log.Configuration(level: level(rule.severity)),
            properties: Log.RuleProperties(tags: ["bluetooth", rule.platform.rawValue]))
    }

    /// Where a finding is: the file (relative to `root` when inside it), a region, and the archive entry if any.
    static func location(_ location: SourceLocation, root: SourceRoot) -> Log.Location {
        let artifact = root.relativePath(of: location.file).map { Log.ArtifactLocation(uri: uri($0), uriBaseId: SourceRoot.uriBaseId) }
            ?? Log.ArtifactLocation(uri: uri(SourceRoot.absolute(location.file)), uriBaseId: nil)
        let logical = location.entry.map { entry in
            [Log.LogicalLocation(fullyQualifiedName: entry + (location.line.map { ":\($0)" } ?? ""), kind: "resource")]
        }
        return Log.Location(physicalLocation: Log.PhysicalLocation(artifactLocation: artifact, region: region(location)),
                            logicalLocations: logical)
    }

    /// The finding's line and column in the file itself; line 1 where the file has no lines of its own.
    static func region(_ location: SourceLocation) -> Log.Region {
        guard location.entry == nil, let line = location.line, line >= 1 else { return Log.Region(startLine: 1, startColumn: nil) }
        return Log.Region(startLine: line, startColumn: location.column.flatMap { $0 >= 1 ? $0 : nil })
    }

    /// A URI reference for a path: relative paths stay relative, absolute ones become `file://` URIs.
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
