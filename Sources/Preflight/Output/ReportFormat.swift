/// The output formats of `hil preflight --format`.
package enum ReportFormat: String, Sendable, CaseIterable {
    /// Human-readable, grouped by severity.
    case text
    /// One JSON object: findings, notes, counts.
    case json
    /// SARIF 2.1.0, as GitHub code scanning reads it.
    case sarif
    /// JUnit XML, one testcase per rule checked.
    case junit

    /// Renders `report`; `strict` makes warnings failures in JUnit, as it does in the exit status; SARIF's
    /// artifact URIs are relative to `root` (default: the repository holding the input, see `SourceRoot`).
    package func render(_ report: Report, strict: Bool = false, root: SourceRoot? = nil) -> String {
        switch self {
        case .text: TextFormatter.render(report, strict: strict)
        case .json: JSONFormatter.render(report)
        case .sarif: SARIFFormatter.render(report, root: root)
        case .junit: JUnitFormatter.render(report, strict: strict)
        }
    }
}

/// Identifies the tool in machine-readable output.
package enum PreflightTool {
    package static let name = "hil preflight"
    package static let version = "0.1.0"

    /// Where to read about what the tool checks, for SARIF's `tool.driver.informationUri` (an absolute URI).
    /// The project has no public page, so this is the platform's official documentation of Bluetooth
    /// permissions: Apple's Core Bluetooth for iOS, Android's Bluetooth permissions page for Android.
    package static func informationURI(for platform: Platform) -> String {
        switch platform {
        case .ios: "https://developer.apple.com/documentation/corebluetooth"
        case .android: "https://developer.android.com/develop/connectivity/bluetooth/bt-permissions"
        }
    }
}

extension Report {
    /// "2 errors, 1 warning, 0 info": the counts of findings by severity.
    package var countsSummary: String {
        let errors = findings(.error).count, warnings = findings(.warning).count, infos = findings(.info).count
        return "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s"), \(infos) info"
    }
}
