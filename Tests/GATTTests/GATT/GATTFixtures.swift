import Synchronization
@testable import HCIPackets
@testable import GATT

/// Databases the GATT and ATT server tests share.
enum GATTFixtures {
    static let customService = BluetoothUUID("A0B40001-926D-4D61-98DF-8C5C62EE53B3") ?? .base
    static let longValueUUID = BluetoothUUID("A0B40002-926D-4D61-98DF-8C5C62EE53B3") ?? .base
    static let writeOnlyUUID = BluetoothUUID(UInt16(0xFF01))
    static let encryptedUUID = BluetoothUUID(UInt16(0xFF02))
    static let authenticatedWriteUUID = BluetoothUUID(UInt16(0xFF03))
    static let handlerUUID = BluetoothUUID(UInt16(0xFF04))
    static let reliableUUID = BluetoothUUID(UInt16(0xFF05))
    static let streamUUID = BluetoothUUID("A0B40003-926D-4D61-98DF-8C5C62EE53B3") ?? .base

    /// 0…99, longer than any single PDU at the default MTU.
    static let longValue: [UInt8] = Array(0..<100)

    /// What the handler characteristic last received; it refuses 0xFF with Value Not Allowed.
    /// A value shared between a handler characteristic and the test.
    final class Box: Sendable {
        let value = Mutex<[UInt8]>([0x01])
        var current: [UInt8] { value.withLock { $0 } }
    }

    static func handlerService(_ box: Box) -> GATTService {
        GATTService(uuid: BluetoothUUID(UInt16(0xFFF0)), characteristics: [
            GATTCharacteristic(uuid: handlerUUID, properties: [.read, .write], value: .handlers(
                read: { box.value.withLock { $0 } },
                write: { (value: [UInt8]) throws(ATTErrorCode) in
                    if value.first == 0xFF { throw .valueNotAllowed }
                    box.value.withLock { $0 = value }
                })),
        ])
    }

    static let custom = GATTService(uuid: customService, characteristics: [
        GATTCharacteristic(uuid: longValueUUID, properties: [.read, .write, .writeWithoutResponse],
                           value: .bytes(longValue), descriptors: [.userDescription("Long value")]),
        GATTCharacteristic(uuid: writeOnlyUUID, properties: [.write], value: .bytes([]), maximumLength: 4),
        GATTCharacteristic(uuid: encryptedUUID, properties: [.read], permissions: [.read, .readEncrypted],
                           value: .bytes([0xE0])),
        GATTCharacteristic(uuid: authenticatedWriteUUID, properties: [.read, .write],
                           permissions: [.read, .write, .writeAuthenticated], value: .bytes([0xA0])),
        GATTCharacteristic(uuid: reliableUUID, properties: [.read, .write], value: .bytes([]), extendedProperties: 0x0001),
        GATTCharacteristic(uuid: streamUUID, properties: [.notify, .indicate], permissions: [], value: .bytes([])),
    ])

    /// GAP, GATT, Device Information, Battery, Heart Rate, Health Thermometer, the custom service and a handler service.
    static func standard(box: Box = Box()) throws -> GATTDatabase {
        try GATTDatabase(services: [
            .gap(name: "HIL Sensor", appearance: 0x0341),
            .gatt(),
            .deviceInformation(manufacturer: "BluetoothHIL", model: "Sim-1", serial: "0001", firmwareRevision: "1.0.0"),
            .battery(level: 90),
            .heartRate(),
            .healthThermometer(),
            custom,
            handlerService(box),
        ])
    }

    /// More than 100 attributes: the standard services, a secondary service
    /// included by two others, and 20 vendor services of mixed UUID widths.
    static func large() throws -> GATTDatabase {
        let secondary = BluetoothUUID("A0B4FFFF-926D-4D61-98DF-8C5C62EE53B3") ?? .base
        var services: [GATTService] = [
            .gap(name: "Large", appearance: 0), .gatt(), .battery(level: 42),
            GATTService(uuid: BluetoothUUID(UInt16(0xFE00)), includes: [secondary, .battery], characteristics: [
                GATTCharacteristic(uuid: BluetoothUUID(UInt16(0xFE01)), properties: .read, value: .bytes([1])),
            ]),
            GATTService(uuid: secondary, isPrimary: false, characteristics: [
                GATTCharacteristic(uuid: BluetoothUUID(UInt16(0xFE02)), properties: [.read, .notify], value: .bytes([2])),
            ]),
            .deviceInformation(manufacturer: "M", model: "L", serial: "S", firmwareRevision: "F"),
        ]
        for index in 0..<20 {
            let base = UInt16(0xD000 + index * 16)
            let uuid = index.isMultiple(of: 2)
                ? BluetoothUUID(base)
                : BluetoothUUID("A0B4\(HexFormat.digits(base, width: 4))-926D-4D61-98DF-8C5C62EE53B3") ?? .base
            services.append(GATTService(uuid: uuid, includes: index == 5 ? [secondary] : [], characteristics: [
                GATTCharacteristic(uuid: BluetoothUUID(base + 1), properties: [.read, .write], value: .bytes([UInt8(index)])),
                GATTCharacteristic(uuid: BluetoothUUID("A0B4\(HexFormat.digits(base + 2, width: 4))-926D-4D61-98DF-8C5C62EE53B3") ?? .base,
                                   properties: [.read, .notify], value: .bytes(Array(repeating: UInt8(index), count: 30)),
                                   descriptors: [.userDescription("Vendor \(index)")]),
            ]))
        }
        return try GATTDatabase(services: services)
    }
}
