import HCIPackets
// One attribute of a laid-out database.

/// One attribute of a `GATTDatabase` (Core v5.4 Vol 3 Part F §3.2): handle, type,
/// permissions and where its value comes from.
struct GATTAttribute: Sendable {
    /// What the attribute is within GATT's grouping.
    enum Role: Sendable {
        /// A service declaration whose group ends at `endHandle`.
        case service(endHandle: UInt16, isPrimary: Bool)
        case include
        case characteristicDeclaration
        case characteristicValue(properties: GATTCharacteristicProperties)
        /// A Client Characteristic Configuration descriptor of the value at `valueHandle`.
        case clientConfiguration(valueHandle: UInt16, properties: GATTCharacteristicProperties)
        case descriptor
    }

    /// Where the value comes from.
    enum Source: Sendable {
        /// Declarations: fixed at layout, never written.
        case fixed([UInt8])
        /// Stored in the database's value store under the handle.
        case stored
        case handlers(read: GATTReadHandler?, write: GATTWriteHandler?)
        case databaseHash
        /// Per connection, kept by each `ATTServer`.
        case clientConfiguration
    }

    let handle: UInt16
    let type: BluetoothUUID
    let permissions: GATTPermissions
    let maximumLength: Int
    let role: Role
    let source: Source

    /// The end of the group this attribute starts (a service), else the handle itself.
    var groupEnd: UInt16 {
        if case .service(let end, _) = role { return end }
        return handle
    }
}
