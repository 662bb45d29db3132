// The GATT database the server-side targets (att-server, host) serve.
import HCIPackets
import GATT

/// Standard services and a vendor service with one characteristic per permission kind (every read and
/// write flag alone, the full-key-size requirement, none at all), a long value, a length-limited
/// write-only value, reliable writes, notify/indicate, handler values that refuse, a secondary service
/// included by a primary one, and 16- and 128-bit UUIDs. Built once per process (a build — layout and
/// Database Hash — cost more than most inputs), and handed to each input with every value as built, so that
/// writes of one input never change what the next one reads.
enum FuzzDatabase {
    private static let shared: (database: GATTDatabase, values: [(handle: UInt16, value: [UInt8])])? = build().map { database in
        (database, (1...UInt16(database.attributeCount)).compactMap { handle in database.value(at: handle).map { (handle, $0) } })
    }

    /// The process's database, every stored value put back as built; nil when it does not build.
    static func make() -> GATTDatabase? {
        guard let shared else { return nil }
        for (handle, value) in shared.values { shared.database.setValue(value, at: handle) }
        return shared.database
    }

    private static let vendor = BluetoothUUID("A0B40001-926D-4D61-98DF-8C5C62EE53B3") ?? .base
    private static let secondary = BluetoothUUID("A0B4FFFF-926D-4D61-98DF-8C5C62EE53B3") ?? .base

    private static func build() -> GATTDatabase? {
        let kinds: [GATTPermissions] = [
            .read, .readEncrypted, .readAuthenticated, .readAuthorized,
            .write, .writeEncrypted, .writeAuthenticated, .writeAuthorized,
            [.read, .readEncrypted, .fullKeySize], [.write, .writeEncrypted, .fullKeySize], [],
        ]
        var characteristics = kinds.enumerated().map { index, permissions in
            GATTCharacteristic(uuid: BluetoothUUID(UInt16(0xFF10 + index)), properties: [.read, .write, .notify],
                               permissions: permissions, value: .bytes([UInt8(index)]), maximumLength: 8)
        }
        characteristics += [
            GATTCharacteristic(uuid: BluetoothUUID("A0B40002-926D-4D61-98DF-8C5C62EE53B3") ?? .base,
                               properties: [.read, .write, .writeWithoutResponse], value: .bytes(Array(0..<100)),
                               descriptors: [.userDescription("Long value")]),
            GATTCharacteristic(uuid: BluetoothUUID(UInt16(0xFF01)), properties: [.write], value: .bytes([]), maximumLength: 4),
            GATTCharacteristic(uuid: BluetoothUUID(UInt16(0xFF05)), properties: [.read, .write], value: .bytes([]),
                               extendedProperties: 0x0001),
            GATTCharacteristic(uuid: BluetoothUUID(UInt16(0xFF06)), properties: [.notify, .indicate], permissions: [],
                               value: .bytes([])),
            GATTCharacteristic(uuid: BluetoothUUID(UInt16(0xFF07)), properties: [.read, .write], value: .handlers(
                read: { () throws(ATTErrorCode) -> [UInt8] in throw .insufficientAuthorization },
                write: { (value: [UInt8]) throws(ATTErrorCode) in if value.first == 0xFF { throw .valueNotAllowed } })),
        ]
        return try? GATTDatabase(services: [
            .gap(name: "HIL Fuzz", appearance: 0x0341),
            .gatt(),
            .battery(level: 90),
            .heartRate(),
            GATTService(uuid: vendor, includes: [secondary], characteristics: characteristics),
            GATTService(uuid: secondary, isPrimary: false, characteristics: [
                GATTCharacteristic(uuid: BluetoothUUID(UInt16(0xFE02)), properties: [.read, .notify], value: .bytes([2])),
            ]),
        ])
    }
}
