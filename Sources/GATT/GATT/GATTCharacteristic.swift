import HCIPackets
// A characteristic in a database built in code.

/// A characteristic (Core v5.4 Vol 3 Part G §3.3): a declaration, a value and
/// its descriptors.
///
/// The database lays it out as the declaration (0x2803: properties, value
/// handle, UUID), the value attribute, then the Characteristic Extended
/// Properties descriptor when there are extended properties, a Client
/// Characteristic Configuration descriptor when the characteristic can notify
/// or indicate, then `descriptors` in order.
public struct GATTCharacteristic: Sendable {
    public var uuid: BluetoothUUID
    public var properties: GATTCharacteristicProperties
    /// Who may read and write the value; by default, what `properties` allow.
    public var permissions: GATTPermissions
    public var value: GATTValue
    public var descriptors: [GATTDescriptor]
    /// The Characteristic Extended Properties bits (§3.3.3.1: 0x0001 Reliable Write,
    /// 0x0002 Writable Auxiliaries); non-zero adds the 0x2900 descriptor and the
    /// `extendedProperties` property.
    public var extendedProperties: UInt16
    /// The longest value a write may leave (at most 512, Vol 3 Part F §3.2.9);
    /// longer writes fail with Invalid Attribute Value Length.
    public var maximumLength: Int

    public init(uuid: BluetoothUUID, properties: GATTCharacteristicProperties,
                permissions: GATTPermissions? = nil, value: GATTValue = .empty,
                descriptors: [GATTDescriptor] = [], extendedProperties: UInt16 = 0, maximumLength: Int = 512) {
        self.uuid = uuid
        self.properties = extendedProperties != 0 ? properties.union(.extendedProperties) : properties
        self.permissions = permissions ?? GATTPermissions(properties: properties)
        self.value = value
        self.descriptors = descriptors
        self.extendedProperties = extendedProperties
        self.maximumLength = min(512, max(0, maximumLength))
    }

    /// Whether the database adds a Client Characteristic Configuration descriptor.
    public var hasClientConfiguration: Bool { !properties.isDisjoint(with: [.notify, .indicate]) }

    /// Whether the database adds a Characteristic Extended Properties descriptor.
    public var hasExtendedPropertiesDescriptor: Bool {
        properties.contains(.extendedProperties) || extendedProperties != 0
    }

    /// The properties octet of the declaration (with `extendedProperties` when the descriptor is added).
    var declaredProperties: GATTCharacteristicProperties {
        hasExtendedPropertiesDescriptor ? properties.union(.extendedProperties) : properties
    }

    /// `descriptors` without the ones the database adds itself (a listed CCCD or
    /// Extended Properties descriptor would otherwise appear twice).
    var listedDescriptors: [GATTDescriptor] {
        descriptors.filter { descriptor in
            !(descriptor.uuid == .clientCharacteristicConfiguration && hasClientConfiguration)
                && !(descriptor.uuid == BluetoothUUID(UInt16(0x2900)) && hasExtendedPropertiesDescriptor)
        }
    }

    /// The number of attributes this characteristic occupies: declaration, value, descriptors.
    var attributeCount: Int {
        2 + (hasExtendedPropertiesDescriptor ? 1 : 0) + (hasClientConfiguration ? 1 : 0) + listedDescriptors.count
    }
}
