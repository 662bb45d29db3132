import GATT
import Roles

/// Why a throughput run failed: what was awaited, for how long, and what came instead.
package enum ThroughputError: Error, Sendable, CustomStringConvertible {
    /// The peer lacks the stream's service or characteristic.
    case notFound(String)
    /// Nothing arrived: what was awaited, the time given, what came instead.
    case silent(awaited: String, timeout: Duration, instead: String)
    case att(ATTError)
    case role(RoleError)

    package var description: String {
        switch self {
        case .notFound(let what): what
        case .silent(let awaited, let timeout, let instead): "no \(awaited) within \(timeout.formatted(.units(allowed: [.seconds, .milliseconds], width: .narrow))); \(instead)"
        case .att(let error): error.description
        case .role(let error): error.description
        }
    }
}
