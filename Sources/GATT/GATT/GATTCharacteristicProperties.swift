// The Characteristic Properties bit field.

/// The Characteristic Properties octet of a characteristic declaration
/// (Core v5.4 Vol 3 Part G §3.3.1.1, Table 3.5): how a client may use the value.
public struct GATTCharacteristicProperties: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01: the value may be broadcast in advertising data (with a Server Characteristic Configuration descriptor).
    public static let broadcast = GATTCharacteristicProperties(rawValue: 0x01)
    /// 0x02: the value may be read.
    public static let read = GATTCharacteristicProperties(rawValue: 0x02)
    /// 0x04: the value may be written with Write Command.
    public static let writeWithoutResponse = GATTCharacteristicProperties(rawValue: 0x04)
    /// 0x08: the value may be written with Write Request.
    public static let write = GATTCharacteristicProperties(rawValue: 0x08)
    /// 0x10: the server may notify the value (with a CCCD).
    public static let notify = GATTCharacteristicProperties(rawValue: 0x10)
    /// 0x20: the server may indicate the value (with a CCCD).
    public static let indicate = GATTCharacteristicProperties(rawValue: 0x20)
    /// 0x40: the value may be written with Signed Write Command.
    public static let authenticatedSignedWrites = GATTCharacteristicProperties(rawValue: 0x40)
    /// 0x80: a Characteristic Extended Properties descriptor holds more properties.
    public static let extendedProperties = GATTCharacteristicProperties(rawValue: 0x80)

    private static let names: [(GATTCharacteristicProperties, String)] = [
        (.broadcast, "broadcast"), (.read, "read"), (.writeWithoutResponse, "writeWithoutResponse"),
        (.write, "write"), (.notify, "notify"), (.indicate, "indicate"),
        (.authenticatedSignedWrites, "authenticatedSignedWrites"), (.extendedProperties, "extendedProperties"),
    ]

    /// "read, notify"; "none" when empty.
    public var description: String {
        let parts = Self.names.filter { contains($0.0) }.map(\.1)
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }
}
