/// One thing `hil doctor` found: how bad it is, what it is, and the fix.
public struct DoctorFinding: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable, Codable, Comparable {
        /// Fine; said so the report shows what was checked.
        case ok
        /// Worth knowing; the bench still works.
        case info
        /// Something will fail in some setups (hci-socket: with bluetoothd running, sysfs power on an old kernel).
        case warning
        /// The bench cannot work until this is fixed.
        case error

        private var rank: Int { [.ok: 0, .info: 1, .warning: 2, .error: 3][self] ?? 0 }
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// Which check found it (`kernel-bluetooth`, `bluetoothd`, …).
    public var check: String
    public var severity: Severity
    public var what: String
    /// The command or change that fixes it; nil for `ok`.
    public var fix: String?

    public init(check: String, severity: Severity, what: String, fix: String? = nil) {
        self.check = check
        self.severity = severity
        self.what = what
        self.fix = fix
    }

    public var description: String {
        "[\(severity.rawValue)] \(check): \(what)" + (fix.map { "\n        fix: \($0)" } ?? "")
    }
}

/// One check of `hil doctor`: reads the environment, returns findings (at least one, `ok` when fine).
public protocol DoctorCheck: Sendable {
    var name: String { get }
    func run(_ environment: DoctorEnvironment) -> [DoctorFinding]
}
