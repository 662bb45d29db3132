/// Why a power meter gave no figures: what was awaited or read, and what came instead. Every one is bench
/// trouble (an infrastructure error, exit 2), never a verdict on the accessory.
package struct PowerMeterError: Error, Equatable, Sendable, CustomStringConvertible {
    package enum Kind: String, Sendable {
        /// The meter's port cannot be opened or configured.
        case unavailable
        /// The meter sent what its protocol does not allow (metadata that does not parse, a range that does not exist).
        case protocolViolation
        /// The meter stopped answering or streaming within the deadline.
        case timeout
        /// The meter's port closed or failed.
        case io
    }

    package var kind: Kind
    package var message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { message }
}
