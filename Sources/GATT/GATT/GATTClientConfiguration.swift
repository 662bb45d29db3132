// The value of a Client Characteristic Configuration descriptor.

/// The Client Characteristic Configuration bits (Core v5.4 Vol 3 Part G §3.3.3.3,
/// Table 3.11): which of notifications and indications one client has enabled
/// for a characteristic. The CCCD is per connection (per bonded client).
public struct GATTClientConfiguration: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 0x0001: the value shall be notified.
    public static let notification = GATTClientConfiguration(rawValue: 0x0001)
    /// 0x0002: the value shall be indicated.
    public static let indication = GATTClientConfiguration(rawValue: 0x0002)

    /// The descriptor value: two octets, little-endian.
    public var bytes: [UInt8] { [UInt8(rawValue & 0xFF), UInt8(rawValue >> 8)] }

    /// "notification, indication"; "none" when empty.
    public var description: String {
        var parts: [String] = []
        if contains(.notification) { parts.append("notification") }
        if contains(.indication) { parts.append("indication") }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }
}
