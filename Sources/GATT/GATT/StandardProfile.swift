import HCIPackets


/// The ready-made GATT services (Core Specification Supplement profiles) a bench accessory or
/// `hil advertise --gatt` can serve, by name.
public enum StandardProfile: String, CaseIterable, Sendable, Codable {
    case battery
    case heartRate = "heart-rate"
    case healthThermometer = "health-thermometer"
    case deviceInformation = "device-information"

    /// Parses "battery", "heart-rate", "hr", "thermometer", "dis", …
    public init?(name: String) {
        switch name.lowercased() {
        case "battery", "bas", "180f": self = .battery
        case "heart-rate", "hr", "hrs", "180d": self = .heartRate
        case "health-thermometer", "thermometer", "hts", "1809": self = .healthThermometer
        case "device-information", "dis", "180a": self = .deviceInformation
        default: return nil
        }
    }

    public var service: GATTService {
        switch self {
        case .battery: .battery(level: 87)
        case .heartRate: .heartRate(beatsPerMinute: 72, sensorLocation: 0x02)
        case .healthThermometer: .healthThermometer()
        case .deviceInformation: .deviceInformation(manufacturer: "BluetoothHIL", model: "HIL-1", serial: "0001", firmwareRevision: "1.0.0")
        }
    }

    public var uuid: BluetoothUUID {
        switch self {
        case .battery: BluetoothUUID(UInt16(0x180F))
        case .heartRate: BluetoothUUID(UInt16(0x180D))
        case .healthThermometer: BluetoothUUID(UInt16(0x1809))
        case .deviceInformation: BluetoothUUID(UInt16(0x180A))
        }
    }

    /// A database with GAP and GATT plus the named profiles.
    public static func database(name: String, appearance: UInt16 = 0, profiles: [StandardProfile]) throws(GATTDatabaseError) -> GATTDatabase {
        try GATTDatabase(services: [.gap(name: name, appearance: appearance), .gatt()] + profiles.map(\.service))
    }
}
