/// The result of linting one file.
package struct Report: Sendable, Codable {
    /// The platform linted.
    package let platform: Platform
    /// The file given (and the entry inside it, for an archive).
    package let location: SourceLocation
    /// Every rule that was checked, whether or not it fired (JUnit writes one testcase for each).
    package let rulesChecked: [Rule]
    /// What was found, errors first, then by position in the file.
    package let findings: [Finding]
    /// What the lint assumed or inferred (an SDK level not given, uses inferred from declarations).
    package let notes: [String]

    package init(platform: Platform, location: SourceLocation, rulesChecked: [Rule], findings: [Finding], notes: [String]) {
        self.platform = platform
        self.location = location
        self.rulesChecked = rulesChecked
        self.findings = findings.sorted { a, b in
            if a.severity != b.severity { return a.severity < b.severity }
            let la = a.location.line ?? 0, lb = b.location.line ?? 0
            if la != lb { return la < lb }
            return a.rule.id < b.rule.id
        }
        self.notes = notes
    }

    /// The findings of one severity.
    package func findings(_ severity: Severity) -> [Finding] {
        findings.filter { $0.severity == severity }
    }

    /// True when an error was found, or with `strict` a warning.
    package func fails(strict: Bool) -> Bool {
        findings.contains { $0.severity == .error || (strict && $0.severity == .warning) }
    }
}
