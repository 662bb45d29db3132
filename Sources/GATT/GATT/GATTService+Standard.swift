import HCIPackets
// Ready-made services for simulated accessories.

extension GATTService {
    /// Generic Access (0x1800, Core v5.4 Vol 3 Part C §12): Device Name (0x2A00)
    /// and Appearance (0x2A01, Assigned Numbers §2.6), both read-only.
    public static func gap(name: String, appearance: UInt16 = 0x0000) -> GATTService {
        GATTService(uuid: .genericAccess, characteristics: [
            GATTCharacteristic(uuid: .deviceName, properties: .read, value: .bytes(Array(name.utf8.prefix(248)))),
            GATTCharacteristic(uuid: .appearance, properties: .read,
                               value: .bytes([UInt8(appearance & 0xFF), UInt8(appearance >> 8)]), maximumLength: 2),
        ])
    }

    /// Generic Attribute (0x1801, Vol 3 Part G §7): Service Changed (0x2A05,
    /// indicate; value 0x0001–0xFFFF), Client Supported Features (0x2B29, read/write,
    /// one octet) and Database Hash (0x2B2A, read; computed by the database).
    ///
    /// Client Supported Features is stored for the whole database rather than per
    /// client as §7.2 asks; a single-client simulated accessory does not notice.
    public static func gatt() -> GATTService {
        GATTService(uuid: .genericAttribute, characteristics: [
            GATTCharacteristic(uuid: .serviceChanged, properties: .indicate, permissions: [],
                               value: .bytes([0x01, 0x00, 0xFF, 0xFF]), maximumLength: 4),
            GATTCharacteristic(uuid: .clientSupportedFeatures, properties: [.read, .write],
                               value: .bytes([0x00]), maximumLength: 1),
            GATTCharacteristic(uuid: .databaseHash, properties: .read, value: .databaseHash, maximumLength: 16),
        ])
    }

    /// Device Information (0x180A, DIS 1.1): Manufacturer Name (0x2A29), Model
    /// Number (0x2A24), Serial Number (0x2A25) and Firmware Revision (0x2A26)
    /// strings, each present when given.
    public static func deviceInformation(manufacturer: String? = nil, model: String? = nil,
                                         serial: String? = nil, firmwareRevision: String? = nil) -> GATTService {
        let fields: [(UInt16, String?)] = [(0x2A29, manufacturer), (0x2A24, model), (0x2A25, serial), (0x2A26, firmwareRevision)]
        return GATTService(uuid: .deviceInformation, characteristics: fields.compactMap { uuid, text in
            text.map { GATTCharacteristic(uuid: BluetoothUUID(uuid), properties: .read, value: .string($0)) }
        })
    }

    /// Battery (0x180F, BAS 1.0): Battery Level (0x2A19, read and notify, one octet, percent).
    public static func battery(level: UInt8) -> GATTService {
        GATTService(uuid: .battery, characteristics: [
            GATTCharacteristic(uuid: .batteryLevel, properties: [.read, .notify], value: .bytes([min(level, 100)]),
                               maximumLength: 1),
        ])
    }

    /// Heart Rate (0x180D, HRS 1.0): Heart Rate Measurement (0x2A37, notify; starts
    /// as flags 0x00 and `beatsPerMinute`) and Body Sensor Location (0x2A38, read;
    /// 1 = chest).
    public static func heartRate(beatsPerMinute: UInt8 = 60, sensorLocation: UInt8 = 0x01) -> GATTService {
        GATTService(uuid: .heartRate, characteristics: [
            GATTCharacteristic(uuid: BluetoothUUID(UInt16(0x2A37)), properties: .notify, permissions: [],
                               value: .bytes([0x00, beatsPerMinute])),
            GATTCharacteristic(uuid: BluetoothUUID(UInt16(0x2A38)), properties: .read, value: .bytes([sensorLocation]),
                               maximumLength: 1),
        ])
    }

    /// Health Thermometer (0x1809, HTS 1.0): Temperature Measurement (0x2A1C,
    /// indicate; starts as flags 0x00, Celsius, and 36.6 as an IEEE 11073 FLOAT).
    public static func healthThermometer() -> GATTService {
        GATTService(uuid: .healthThermometer, characteristics: [
            GATTCharacteristic(uuid: BluetoothUUID(UInt16(0x2A1C)), properties: .indicate, permissions: [],
                               value: .bytes([0x00, 0x6E, 0x01, 0x00, 0xFF])),
        ])
    }
}
