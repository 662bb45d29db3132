/// Where a rule comes from: the vendor document that states it.
package struct RuleSource: Sendable, Hashable, Codable {
    /// The document's title, as the vendor names it.
    package let title: String
    /// A link to the document.
    package let url: String
}

/// One lint rule: a stable ID, a severity, what it checks and where the rule is written down.
package struct Rule: Sendable, Hashable, Codable, Identifiable {
    /// The stable ID, e.g. `IOS001`; never reused for another meaning.
    package let id: String
    /// A short PascalCase name, e.g. `AlwaysUsageDescriptionMissing` (SARIF's `rule.name`).
    package let name: String
    /// The platform the rule applies to.
    package let platform: Platform
    /// How much a finding of this rule matters.
    package let severity: Severity
    /// One sentence: what the rule checks.
    package let summary: String
    /// The sentence a developer needs: why it matters and what to do.
    package let help: String
    /// The vendor documents the rule is drawn from.
    package let sources: [RuleSource]
}
