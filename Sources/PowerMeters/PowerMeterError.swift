import Support

/// Why a power meter gave no figures: what was awaited or read, and what came instead. Every one is bench
/// trouble (an infrastructure error, exit 2), never a verdict on the accessory.
package typealias PowerMeterError = KindedError<PowerMeterErrorKind>

/// What kept a power meter from giving figures: `PowerMeterError.Kind`.
package enum PowerMeterErrorKind: String, Sendable {
    /// The meter's port cannot be opened or configured.
    case unavailable
    /// The meter sent what its protocol does not allow (metadata that does not parse, a range that does not exist).
    case protocolViolation
    /// The meter stopped answering or streaming within the deadline.
    case timeout
    /// The meter's port closed or failed.
    case io
}
