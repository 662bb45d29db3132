import HCIPackets
// The harness's own protected service, which a secure accessory serves.

extension BluetoothUUID {
    /// The HIL Protected Data service (a vendor 128-bit UUID): one characteristic a client may read only
    /// over a secured link. Bumble's secure accessory (scripts/peers/bumble-secure-accessory.py) serves the same.
    public static let protectedDataService = BluetoothUUID(high: 0x5A5E_0001_6B1C_4D9E, low: 0x9A5F_0000_0000_0001)
    /// The HIL Protected Data characteristic.
    public static let protectedData = BluetoothUUID(high: 0x5A5E_0002_6B1C_4D9E, low: 0x9A5F_0000_0000_0001)
}

/// What a protected characteristic asks of the link (Core v5.4 Vol 3 Part C §10.3).
public enum ProtectionLevel: String, Sendable, Hashable, CaseIterable {
    /// Readable on any link (an accessory that forgets to protect its data).
    case none
    /// Readable on an encrypted link (Insufficient Encryption, 0x0F, otherwise).
    case encryption
    /// Readable on a link encrypted with an authenticated key (Insufficient Authentication, 0x05, otherwise).
    case authentication

    var permissions: GATTPermissions {
        switch self {
        case .none: [.read, .write]
        case .encryption: [.readEncrypted, .writeEncrypted]
        case .authentication: [.readAuthenticated, .readEncrypted, .writeAuthenticated, .writeEncrypted]
        }
    }
}

extension GATTService {
    /// HIL Protected Data: one read/write characteristic holding `value`, guarded as `level` says.
    public static func protectedData(value: [UInt8], level: ProtectionLevel) -> GATTService {
        GATTService(uuid: .protectedDataService, characteristics: [
            GATTCharacteristic(uuid: .protectedData, properties: [.read, .write], permissions: level.permissions, value: .bytes(value)),
        ])
    }
}
