/// How much a finding matters.
///
/// Ordered from most to least severe: `.error < .warning < .info` in the sort order, so sorting a list
/// of findings by severity puts errors first.
package enum Severity: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// The app crashes, is rejected, or silently cannot use Bluetooth: fails the run.
    case error
    /// Likely wrong, or wrong on some devices: fails the run only with `--strict`.
    case warning
    /// Worth knowing; never fails the run.
    case info

    private var rank: Int {
        switch self {
        case .error: 0
        case .warning: 1
        case .info: 2
        }
    }

    package static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}
