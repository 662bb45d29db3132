import HCIPackets
// A characteristic descriptor in a database built in code.

/// A characteristic descriptor (Core v5.4 Vol 3 Part G §3.3.3): an attribute that
/// follows a characteristic value and describes or configures it.
///
/// The Client Characteristic Configuration descriptor (0x2902) is added by the
/// database for every characteristic that can notify or indicate, and the
/// Characteristic Extended Properties descriptor (0x2900) for every one with
/// extended properties; do not list them here.
public struct GATTDescriptor: Sendable {
    public var uuid: BluetoothUUID
    public var value: GATTValue
    public var permissions: GATTPermissions
    /// The longest value a write may leave (at most 512, Vol 3 Part F §3.2.9).
    public var maximumLength: Int

    public init(uuid: BluetoothUUID, value: GATTValue, permissions: GATTPermissions = .read, maximumLength: Int = 512) {
        self.uuid = uuid
        self.value = value
        self.permissions = permissions
        self.maximumLength = maximumLength
    }

    /// A Characteristic User Description (0x2901, §3.3.3.2): UTF-8 text, read-only.
    public static func userDescription(_ text: String) -> GATTDescriptor {
        GATTDescriptor(uuid: .characteristicUserDescription, value: .string(text))
    }

    /// A Characteristic Presentation Format (0x2904, §3.3.3.5): format, exponent,
    /// unit, namespace and description, 7 octets.
    public static func presentationFormat(format: UInt8, exponent: Int8 = 0, unit: UInt16,
                                          namespace: UInt8 = 0x01, description: UInt16 = 0x0000) -> GATTDescriptor {
        var writer = ByteWriter(capacity: 7)
        writer.u8(format)
        writer.u8(UInt8(bitPattern: exponent))
        writer.u16(unit)
        writer.u8(namespace)
        writer.u16(description)
        return GATTDescriptor(uuid: BluetoothUUID(UInt16(0x2904)), value: .bytes(writer.bytes))
    }
}
