import HCIPackets
// A service in a database built in code.

/// A service (Core v5.4 Vol 3 Part G §3.1): a service declaration, include
/// declarations (§3.2), then characteristics.
///
/// `includes` name other services of the same database by UUID (the first
/// service with that UUID); the database resolves them to handle ranges.
public struct GATTService: Sendable {
    public var uuid: BluetoothUUID
    /// Primary (0x2800) or secondary (0x2801, found only through an include).
    public var isPrimary: Bool
    public var includes: [BluetoothUUID]
    public var characteristics: [GATTCharacteristic]

    public init(uuid: BluetoothUUID, isPrimary: Bool = true, includes: [BluetoothUUID] = [],
                characteristics: [GATTCharacteristic]) {
        self.uuid = uuid
        self.isPrimary = isPrimary
        self.includes = includes
        self.characteristics = characteristics
    }

    /// The number of attributes this service occupies in a database.
    var attributeCount: Int {
        1 + includes.count + characteristics.reduce(0) { $0 + $1.attributeCount }
    }
}
