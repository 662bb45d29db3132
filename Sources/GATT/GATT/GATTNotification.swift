import HCIPackets
// A value the server pushed.

/// A value the server sent unasked: a Handle Value Notification, an entry of a
/// Multiple Handle Value Notification, or a Handle Value Indication (Core v5.4
/// Vol 3 Part F §3.4.7; Vol 3 Part G §4.10–§4.11). `GATTClient` confirms
/// indications itself.
public struct GATTNotification: Hashable, Sendable, CustomStringConvertible {
    /// The characteristic value handle.
    public var handle: UInt16
    public var value: [UInt8]
    /// Whether it came as an indication (and was confirmed).
    public var isIndication: Bool

    public init(handle: UInt16, value: [UInt8], isIndication: Bool = false) {
        self.handle = handle
        self.value = value
        self.isIndication = isIndication
    }

    /// "notification 0x0012 = 5A".
    public var description: String {
        "\(isIndication ? "indication" : "notification") \(HexFormat.prefixed(handle, width: 4)) = \(HexFormat.bytes(value))"
    }
}
