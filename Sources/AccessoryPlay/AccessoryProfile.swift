import HCIPackets
import GATT
import SMP
import Roles

/// An accessory as an app team describes it in a profile file (`profiles/*.json`): the name it advertises,
/// how it advertises, and the GATT services it serves — what `hil accessory` plays for a phone.
package struct AccessoryProfile: Sendable {
    /// The name in the advertising data and the GAP Device Name characteristic.
    package var name: String
    /// Advertising interval in milliseconds (20 to 10240).
    package var advertisingIntervalMilliseconds: Double
    /// The service UUIDs listed in the advertising data.
    package var advertisedServices: [BluetoothUUID]
    /// The services after GAP and GATT, in the order they are served.
    package var services: [GATTService]
    /// Characteristics whose values change on their own and are notified (a counter, a waveform, a file).
    package var notificationSources: [NotificationSource]
    /// How it pairs when a central asks (`security`); nil refuses pairing (Pairing Not Supported).
    package var security: AccessorySecurity?
    /// How it addresses itself on the air.
    package var addressKind: AddressKind = .publicAddress
    /// For a random static or resolvable private address: its identity (random static address) and IRK; nil
    /// makes a fresh one for each run.
    package var identity: LocalIdentity?
    /// An MCUmgr SMP server with MCUboot's slots (`mcumgr`): its service is the last of `services`.
    package var updates: AccessoryUpdates?

    /// The address kinds of Core v5.4 Vol 6 Part B §1.3 an accessory can advertise with.
    package enum AddressKind: String, Sendable, Hashable, CaseIterable {
        /// The controller's public address.
        case publicAddress = "public"
        /// A random static address: the same for the whole run (the identity's).
        case randomStatic = "random-static"
        /// A resolvable private address made from the IRK, new each time it advertises (LE privacy): a phone
        /// without the IRK sees a new device each time.
        case resolvablePrivate = "resolvable-private"
    }

    package init(name: String, advertisingIntervalMilliseconds: Double = 100, advertisedServices: [BluetoothUUID] = [],
                services: [GATTService], notificationSources: [NotificationSource] = []) {
        self.name = name
        self.advertisingIntervalMilliseconds = advertisingIntervalMilliseconds
        self.advertisedServices = advertisedServices
        self.services = services
        self.notificationSources = notificationSources
    }

    /// The GATT database: GAP (with the name), GATT (with Service Changed), then the profile's services, and
    /// `addedService` after them when a `service_changed` step has added it.
    package func database(withAddedService: Bool = false) throws(GATTDatabaseError) -> GATTDatabase {
        try GATTDatabase(services: [.gap(name: name), .gatt()] + services + (withAddedService ? [Self.addedService] : []))
    }

    /// The service a `service_changed` step adds after the profile's own (so none of their handles moves) and
    /// the next one removes: one readable characteristic saying where it came from.
    package static let addedService = GATTService(
        uuid: BluetoothUUID(high: 0x4849_4C53_4300_4000, low: 0x8000_0000_0000_0001),
        characteristics: [GATTCharacteristic(uuid: BluetoothUUID(high: 0x4849_4C53_4300_4000, low: 0x8000_0000_0000_0002),
                                             properties: .read, value: .string("added by a service_changed step"))])

    /// What the accessory advertises: its name, its advertised services, its interval.
    package var advertisement: Advertisement {
        Advertisement(name: name, serviceUUIDs: advertisedServices, interval: UInt16((advertisingIntervalMilliseconds / 0.625).rounded()))
    }
}
