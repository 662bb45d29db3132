// AD types: the kinds of AD structure in advertising data.

/// The type octet of an AD structure: what the structure's data means.
///
/// The Core Specification Supplement (CSS) Part A §1 defines the formats;
/// Assigned Numbers §2.3 ("Common Data Types") assigns the values. The same
/// types appear in advertising data, scan response data, EIR and OOB data
/// (Core v5.4 Vol 3 Part C §11).
public struct ADType: RawCode, Hashable, Sendable, CustomStringConvertible, Codable {
    /// The AD type octet.
    public let rawValue: UInt8

    /// Wraps any octet; unknown types are kept.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The Assigned Numbers name, e.g. "Complete Local Name", or nil if unknown.
    public var name: String? {
        switch rawValue {
        case 0x01: "Flags"
        case 0x02: "Incomplete List of 16-bit Service or Service Class UUIDs"
        case 0x03: "Complete List of 16-bit Service or Service Class UUIDs"
        case 0x04: "Incomplete List of 32-bit Service or Service Class UUIDs"
        case 0x05: "Complete List of 32-bit Service or Service Class UUIDs"
        case 0x06: "Incomplete List of 128-bit Service or Service Class UUIDs"
        case 0x07: "Complete List of 128-bit Service or Service Class UUIDs"
        case 0x08: "Shortened Local Name"
        case 0x09: "Complete Local Name"
        case 0x0A: "Tx Power Level"
        case 0x0D: "Class of Device"
        case 0x0E: "Simple Pairing Hash C-192"
        case 0x0F: "Simple Pairing Randomizer R-192"
        case 0x10: "Device ID / Security Manager TK Value"
        case 0x11: "Security Manager Out of Band Flags"
        case 0x12: "Peripheral Connection Interval Range"
        case 0x14: "List of 16-bit Service Solicitation UUIDs"
        case 0x15: "List of 128-bit Service Solicitation UUIDs"
        case 0x16: "Service Data - 16-bit UUID"
        case 0x17: "Public Target Address"
        case 0x18: "Random Target Address"
        case 0x19: "Appearance"
        case 0x1A: "Advertising Interval"
        case 0x1B: "LE Bluetooth Device Address"
        case 0x1C: "LE Role"
        case 0x1D: "Simple Pairing Hash C-256"
        case 0x1E: "Simple Pairing Randomizer R-256"
        case 0x1F: "List of 32-bit Service Solicitation UUIDs"
        case 0x20: "Service Data - 32-bit UUID"
        case 0x21: "Service Data - 128-bit UUID"
        case 0x22: "LE Secure Connections Confirmation Value"
        case 0x23: "LE Secure Connections Random Value"
        case 0x24: "URI"
        case 0x25: "Indoor Positioning"
        case 0x26: "Transport Discovery Data"
        case 0x27: "LE Supported Features"
        case 0x28: "Channel Map Update Indication"
        case 0x29: "PB-ADV"
        case 0x2A: "Mesh Message"
        case 0x2B: "Mesh Beacon"
        case 0x2C: "BIGInfo"
        case 0x2D: "Broadcast_Code"
        case 0x2E: "Resolvable Set Identifier"
        case 0x2F: "Advertising Interval - long"
        case 0x30: "Broadcast_Name"
        case 0x31: "Encrypted Advertising Data"
        case 0x32: "Periodic Advertising Response Timing Information"
        case 0x34: "Electronic Shelf Label"
        case 0x3D: "3D Information Data"
        case 0xFF: "Manufacturer Specific Data"
        default: nil
        }
    }

    /// "0x09 Complete Local Name", or "0xE0 (unknown AD type)".
    public var description: String {
        HexFormat.prefixed(rawValue, width: 2) + " " + (name ?? "(unknown AD type)")
    }

    /// Whether the type is one of the six service UUID lists (0x02…0x07).
    public var isServiceUUIDList: Bool { (0x02...0x07).contains(rawValue) }

    /// For UUID lists, solicitation lists and service data: the width of the
    /// UUIDs the structure carries; nil for other types.
    public var uuidWidth: BluetoothUUID.Width? {
        switch rawValue {
        case 0x02, 0x03, 0x14, 0x16: .bits16
        case 0x04, 0x05, 0x1F, 0x20: .bits32
        case 0x06, 0x07, 0x15, 0x21: .bits128
        default: nil
        }
    }
}

// MARK: - Constants

extension ADType {
    /// Flags (0x01), CSS Part A §1.3.
    public static let flags = ADType(rawValue: 0x01)
    /// Incomplete List of 16-bit Service or Service Class UUIDs (0x02), CSS Part A §1.1.
    public static let incompleteList16BitServiceUUIDs = ADType(rawValue: 0x02)
    /// Complete List of 16-bit Service or Service Class UUIDs (0x03), CSS Part A §1.1.
    public static let completeList16BitServiceUUIDs = ADType(rawValue: 0x03)
    /// Incomplete List of 32-bit Service or Service Class UUIDs (0x04), CSS Part A §1.1.
    public static let incompleteList32BitServiceUUIDs = ADType(rawValue: 0x04)
    /// Complete List of 32-bit Service or Service Class UUIDs (0x05), CSS Part A §1.1.
    public static let completeList32BitServiceUUIDs = ADType(rawValue: 0x05)
    /// Incomplete List of 128-bit Service or Service Class UUIDs (0x06), CSS Part A §1.1.
    public static let incompleteList128BitServiceUUIDs = ADType(rawValue: 0x06)
    /// Complete List of 128-bit Service or Service Class UUIDs (0x07), CSS Part A §1.1.
    public static let completeList128BitServiceUUIDs = ADType(rawValue: 0x07)

    /// Short alias of `incompleteList16BitServiceUUIDs` (0x02).
    public static let incomplete16 = incompleteList16BitServiceUUIDs
    /// Short alias of `completeList16BitServiceUUIDs` (0x03).
    public static let completeList16 = completeList16BitServiceUUIDs
    /// Short alias of `incompleteList32BitServiceUUIDs` (0x04).
    public static let incomplete32 = incompleteList32BitServiceUUIDs
    /// Short alias of `completeList32BitServiceUUIDs` (0x05).
    public static let complete32 = completeList32BitServiceUUIDs
    /// Short alias of `incompleteList128BitServiceUUIDs` (0x06).
    public static let incomplete128 = incompleteList128BitServiceUUIDs
    /// Short alias of `completeList128BitServiceUUIDs` (0x07).
    public static let complete128 = completeList128BitServiceUUIDs

    /// Shortened Local Name (0x08), CSS Part A §1.2.
    public static let shortenedLocalName = ADType(rawValue: 0x08)
    /// Complete Local Name (0x09), CSS Part A §1.2.
    public static let completeLocalName = ADType(rawValue: 0x09)
    /// Tx Power Level (0x0A), CSS Part A §1.5: one signed octet, dBm.
    public static let txPowerLevel = ADType(rawValue: 0x0A)
    /// Class of Device (0x0D), CSS Part A §1.6.
    public static let classOfDevice = ADType(rawValue: 0x0D)
    /// Simple Pairing Hash C-192 (0x0E), CSS Part A §1.6.
    public static let simplePairingHashC192 = ADType(rawValue: 0x0E)
    /// Simple Pairing Randomizer R-192 (0x0F), CSS Part A §1.6.
    public static let simplePairingRandomizerR192 = ADType(rawValue: 0x0F)
    /// Device ID / Security Manager TK Value (0x10), CSS Part A §1.8.
    public static let securityManagerTKValue = ADType(rawValue: 0x10)
    /// Security Manager Out of Band Flags (0x11), CSS Part A §1.7.
    public static let securityManagerOOBFlags = ADType(rawValue: 0x11)
    /// Peripheral Connection Interval Range (0x12), CSS Part A §1.9.
    public static let peripheralConnectionIntervalRange = ADType(rawValue: 0x12)
    /// The pre-v5.3 name of `peripheralConnectionIntervalRange` (0x12).
    public static let slaveConnectionIntervalRange = peripheralConnectionIntervalRange
    /// List of 16-bit Service Solicitation UUIDs (0x14), CSS Part A §1.10.
    public static let serviceSolicitation16 = ADType(rawValue: 0x14)
    /// List of 128-bit Service Solicitation UUIDs (0x15), CSS Part A §1.10.
    public static let serviceSolicitation128 = ADType(rawValue: 0x15)
    /// Service Data - 16-bit UUID (0x16), CSS Part A §1.11.
    public static let serviceData16 = ADType(rawValue: 0x16)
    /// Public Target Address (0x17), CSS Part A §1.13.
    public static let publicTargetAddress = ADType(rawValue: 0x17)
    /// Random Target Address (0x18), CSS Part A §1.14.
    public static let randomTargetAddress = ADType(rawValue: 0x18)
    /// Appearance (0x19), CSS Part A §1.12: two octets, Assigned Numbers §2.6.
    public static let appearance = ADType(rawValue: 0x19)
    /// Advertising Interval (0x1A), CSS Part A §1.15.
    public static let advertisingInterval = ADType(rawValue: 0x1A)
    /// LE Bluetooth Device Address (0x1B), CSS Part A §1.16.
    public static let leBluetoothDeviceAddress = ADType(rawValue: 0x1B)
    /// LE Role (0x1C), CSS Part A §1.17.
    public static let leRole = ADType(rawValue: 0x1C)
    /// Simple Pairing Hash C-256 (0x1D), CSS Part A §1.6.
    public static let simplePairingHashC256 = ADType(rawValue: 0x1D)
    /// Simple Pairing Randomizer R-256 (0x1E), CSS Part A §1.6.
    public static let simplePairingRandomizerR256 = ADType(rawValue: 0x1E)
    /// List of 32-bit Service Solicitation UUIDs (0x1F), CSS Part A §1.10.
    public static let serviceSolicitation32 = ADType(rawValue: 0x1F)
    /// Service Data - 32-bit UUID (0x20), CSS Part A §1.11.
    public static let serviceData32 = ADType(rawValue: 0x20)
    /// Service Data - 128-bit UUID (0x21), CSS Part A §1.11.
    public static let serviceData128 = ADType(rawValue: 0x21)
    /// LE Secure Connections Confirmation Value (0x22), CSS Part A §1.6.
    public static let leSecureConnectionsConfirmationValue = ADType(rawValue: 0x22)
    /// LE Secure Connections Random Value (0x23), CSS Part A §1.6.
    public static let leSecureConnectionsRandomValue = ADType(rawValue: 0x23)
    /// URI (0x24), CSS Part A §1.18.
    public static let uri = ADType(rawValue: 0x24)
    /// LE Supported Features (0x27), CSS Part A §1.19.
    public static let leSupportedFeatures = ADType(rawValue: 0x27)
    /// Resolvable Set Identifier (0x2E), Coordinated Set Identification Profile.
    public static let resolvableSetIdentifier = ADType(rawValue: 0x2E)
    /// Broadcast_Name (0x30), Public Broadcast Profile.
    public static let broadcastName = ADType(rawValue: 0x30)
    /// Encrypted Advertising Data (0x31), CSS Part A §1.23.
    public static let encryptedAdvertisingData = ADType(rawValue: 0x31)
    /// Manufacturer Specific Data (0xFF), CSS Part A §1.4: company identifier, then data.
    public static let manufacturerSpecificData = ADType(rawValue: 0xFF)
}
