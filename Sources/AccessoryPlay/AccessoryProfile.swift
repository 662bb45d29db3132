import HCI

/// An accessory as an app team describes it in a profile file (`profiles/*.json`): the name it advertises,
/// how it advertises, and the GATT services it serves — what `hil accessory` plays for a phone.
public struct AccessoryProfile: Sendable {
    /// The name in the advertising data and the GAP Device Name characteristic.
    public var name: String
    /// Advertising interval in milliseconds (20 to 10240).
    public var advertisingIntervalMilliseconds: Double
    /// The service UUIDs listed in the advertising data.
    public var advertisedServices: [BluetoothUUID]
    /// The services after GAP and GATT, in the order they are served.
    public var services: [GATTService]

    public init(name: String, advertisingIntervalMilliseconds: Double = 100, advertisedServices: [BluetoothUUID] = [],
                services: [GATTService]) {
        self.name = name
        self.advertisingIntervalMilliseconds = advertisingIntervalMilliseconds
        self.advertisedServices = advertisedServices
        self.services = services
    }

    /// The GATT database: GAP (with the name), GATT, then the profile's services.
    public func database() throws(GATTDatabaseError) -> GATTDatabase {
        try GATTDatabase(services: [.gap(name: name), .gatt()] + services)
    }

    /// What the accessory advertises: its name, its advertised services, its interval.
    public var advertisement: Advertisement {
        Advertisement(name: name, serviceUUIDs: advertisedServices, interval: UInt16((advertisingIntervalMilliseconds / 0.625).rounded()))
    }
}
