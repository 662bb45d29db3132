/// One thing `hil doctor` found: how bad it is, what it is, and the fix.
package struct DoctorFinding: Sendable, Hashable, Codable, CustomStringConvertible {
    package enum Severity: String, Sendable, Hashable, Codable, Comparable {
        /// Fine; said so the report shows what was checked.
        case ok
        /// Worth knowing; the bench still works.
        case info
        /// Something will fail in some setups (hci-socket: with bluetoothd running, sysfs power on an old kernel).
        case warning
        /// The bench cannot work until this is fixed.
        case error

        private var rank: Int { [.ok: 0, .info: 1, .warning: 2, .error: 3][self] ?? 0 }
        package static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// Which check found it (`kernel-bluetooth`, `bluetoothd`, …).
    package var check: String
    package var severity: Severity
    package var what: String
    /// The command or change that fixes it; nil for `ok`.
    package var fix: String?

    package var description: String {
        "[\(severity.rawValue)] \(check): \(what)" + (fix.map { "\n        fix: \($0)" } ?? "")
    }
}

/// One check of `hil doctor`: reads the environment, returns findings (at least one, `ok` when fine).
package protocol DoctorCheck: Sendable {
    var name: String { get }
    func run(_ environment: DoctorEnvironment) -> [DoctorFinding]
}

extension DoctorCheck {
    /// A finding of this check.
    func finding(_ severity: DoctorFinding.Severity, _ what: String, fix: String? = nil) -> DoctorFinding {
        DoctorFinding(check: name, severity: severity, what: what, fix: fix)
    }
}
