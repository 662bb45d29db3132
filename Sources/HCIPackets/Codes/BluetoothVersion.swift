// Core specification version numbers.

/// The Core specification version a controller implements, as a version number.
///
/// This is the `HCI_Version` and `LMP_Version` of HCI_Read_Local_Version_Information
/// (Core v5.4 Vol 4 Part E §7.4.1), the `VersNr` of LL_VERSION_IND
/// (Vol 6 Part B §2.4.2.13) and the LMP VersNr (Vol 2 Part C §4.3.2). The
/// numbers are listed in Assigned Numbers §2.1 ("Link Layer" / "LMP" /
/// "HCI" version): 0 is 1.0b, … 13 is 5.4, 14 is 6.0, 15 is 6.1.
public struct BluetoothVersion: RawCode, Hashable, Sendable, CustomStringConvertible, Codable, Comparable {
    /// The version number octet.
    public let rawValue: UInt8

    /// Wraps any octet; numbers past the table are kept.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Whether Assigned Numbers names this version number.
    public var isKnown: Bool { Self.names.indices.contains(Int(rawValue)) }

    /// The Core specification version, e.g. "5.2", "2.1+EDR"; "unknown (0x20)"
    /// for numbers the table does not list.
    public var name: String {
        let index = Int(rawValue)
        guard Self.names.indices.contains(index) else {
            return "unknown (" + HexFormat.prefixed(rawValue, width: 2) + ")"
        }
        return Self.names[index]
    }

    /// The same as `name`.
    public var description: String { name }

    public static func < (lhs: BluetoothVersion, rhs: BluetoothVersion) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    private static let names: [String] = [
        "1.0b", "1.1", "1.2", "2.0+EDR", "2.1+EDR", "3.0+HS",
        "4.0", "4.1", "4.2", "5.0", "5.1", "5.2", "5.3", "5.4", "6.0", "6.1",
    ]
}

// MARK: - Constants

extension BluetoothVersion {
    /// Bluetooth Core Specification 1.0b (0).
    public static let v1_0b = BluetoothVersion(rawValue: 0)
    /// Bluetooth Core Specification 1.1 (1).
    public static let v1_1 = BluetoothVersion(rawValue: 1)
    /// Bluetooth Core Specification 1.2 (2).
    public static let v1_2 = BluetoothVersion(rawValue: 2)
    /// Bluetooth Core Specification 2.0 + EDR (3).
    public static let v2_0 = BluetoothVersion(rawValue: 3)
    /// Bluetooth Core Specification 2.1 + EDR (4).
    public static let v2_1 = BluetoothVersion(rawValue: 4)
    /// Bluetooth Core Specification 3.0 + HS (5).
    public static let v3_0 = BluetoothVersion(rawValue: 5)
    /// Bluetooth Core Specification 4.0 (6), the first with Low Energy.
    public static let v4_0 = BluetoothVersion(rawValue: 6)
    /// Bluetooth Core Specification 4.1 (7).
    public static let v4_1 = BluetoothVersion(rawValue: 7)
    /// Bluetooth Core Specification 4.2 (8).
    public static let v4_2 = BluetoothVersion(rawValue: 8)
    /// Bluetooth Core Specification 5.0 (9).
    public static let v5_0 = BluetoothVersion(rawValue: 9)
    /// Bluetooth Core Specification 5.1 (10).
    public static let v5_1 = BluetoothVersion(rawValue: 10)
    /// Bluetooth Core Specification 5.2 (11).
    public static let v5_2 = BluetoothVersion(rawValue: 11)
    /// Bluetooth Core Specification 5.3 (12).
    public static let v5_3 = BluetoothVersion(rawValue: 12)
    /// Bluetooth Core Specification 5.4 (13).
    public static let v5_4 = BluetoothVersion(rawValue: 13)
    /// Bluetooth Core Specification 6.0 (14).
    public static let v6_0 = BluetoothVersion(rawValue: 14)
    /// Bluetooth Core Specification 6.1 (15).
    public static let v6_1 = BluetoothVersion(rawValue: 15)
}
