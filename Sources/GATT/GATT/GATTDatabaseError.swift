import HCIPackets
// Why a database could not be built.

/// A `GATTDatabase` that cannot be laid out as written.
public enum GATTDatabaseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A service includes a UUID no service in the database has.
    case unknownInclude(service: BluetoothUUID, included: BluetoothUUID)
    /// The attributes do not fit in handles 0x0001–0xFFFF (Core v5.4 Vol 3 Part F §3.2.2).
    case tooManyAttributes(Int)
    /// A stored value is longer than 512 octets (Vol 3 Part F §3.2.9) or its maximum length.
    case valueTooLong(uuid: BluetoothUUID, length: Int, maximum: Int)

    public var description: String {
        switch self {
        case .unknownInclude(let service, let included):
            "service \(service) includes \(included), which is not in the database"
        case .tooManyAttributes(let count):
            "\(count) attributes do not fit in handles 0x0001–0xFFFF"
        case .valueTooLong(let uuid, let length, let maximum):
            "the value of \(uuid) is \(length) octets; at most \(maximum) allowed"
        }
    }
}
