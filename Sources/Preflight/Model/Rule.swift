/// Where a rule comes from: the vendor document that states it.
public struct RuleSource: Sendable, Hashable, Codable {
    /// The document's title, as the vendor names it.
    public let title: String
    /// A link to the document.
    public let url: String

    public init(title: String, url: String) {
        self.title = title
        self.url = url
    }
}

/// One lint rule: a stable ID, a severity, what it checks and where the rule is written down.
public struct Rule: Sendable, Hashable, Codable, Identifiable {
    /// The stable ID, e.g. `IOS001`; never reused for another meaning.
    public let id: String
    /// A short PascalCase name, e.g. `AlwaysUsageDescriptionMissing` (SARIF's `rule.name`).
    public let name: String
    /// The platform the rule applies to.
    public let platform: Platform
    /// How much a finding of this rule matters.
    public let severity: Severity
    /// One sentence: what the rule checks.
    public let summary: String
    /// The sentence a developer needs: why it matters and what to do.
    public let help: String
    /// The vendor documents the rule is drawn from.
    public let sources: [RuleSource]

    public init(
        id: String, name: String, platform: Platform, severity: Severity,
        summary: String, help: String, sources: [RuleSource]
    ) {
        self.id = id
        self.name = name
        self.platform = platform
        self.severity = severity
        self.summary = summary
        self.help = help
        self.sources = sources
    }
}
