import Foundation
import Testing
@testable import HCIPackets

@Suite("BluetoothUUID")
struct BluetoothUUIDTests {
    static let battery128: [UInt8] = [
        0x00, 0x00, 0x18, 0x0F, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0x80, 0x5F, 0x9B, 0x34, 0xFB,
    ]

    @Test("16-bit form")
    func sixteen() {
        let uuid = BluetoothUUID(0x180F)
        #expect(uuid.width == .bits16)
        #expect(uuid.littleEndianBytes == [0x0F, 0x18])
        #expect(uuid.uuid128 == Self.battery128)
        #expect(uuid.description == "180F")
        #expect(uuid.uint16Value == 0x180F)
    }

    @Test("32-bit form")
    func thirtyTwo() {
        let uuid = BluetoothUUID(UInt32(0x1234_5678))
        #expect(uuid.width == .bits32)
        #expect(uuid.littleEndianBytes == [0x78, 0x56, 0x34, 0x12])
        #expect(uuid.description == "12345678")
        #expect(uuid.uuid128.prefix(4) == [0x12, 0x34, 0x56, 0x78])
        #expect(uuid.uint16Value == nil)
        #expect(uuid.uint32Value == 0x1234_5678)
    }

    @Test("128-bit form")
    func oneTwentyEight() throws {
        let uuid = try #require(BluetoothUUID("6e400001-b5a3-f393-e0a9-e50e24dcca9e"))
        #expect(uuid.width == .bits128)
        #expect(uuid.description == "6E400001-B5A3-F393-E0A9-E50E24DCCA9E")
        #expect(uuid.littleEndianBytes == [0x9E, 0xCA, 0xDC, 0x24, 0x0E, 0xE5, 0xA9, 0xE0,
                                           0x93, 0xF3, 0xA3, 0xB5, 0x01, 0x00, 0x40, 0x6E])
        #expect(uuid.uint16Value == nil && uuid.uint32Value == nil)
        #expect(uuid.name == nil)
        #expect(BluetoothUUID(littleEndian: uuid.littleEndianBytes) == uuid)
        #expect(BluetoothUUID(uuid128: uuid.uuid128) == uuid)
        #expect(uuid.foundationUUID.uuidString == "6E400001-B5A3-F393-E0A9-E50E24DCCA9E")
        #expect(BluetoothUUID(uuid.foundationUUID) == uuid)
    }

    @Test("16-bit equals its 128-bit expansion, and hashes alike")
    func equalityAcrossForms() throws {
        let short = BluetoothUUID(0x180F)
        let long = try #require(BluetoothUUID("0000180f-0000-1000-8000-00805f9b34fb"))
        let mid = BluetoothUUID(UInt32(0x180F))
        #expect(short == long && long == mid)
        #expect(Set([short, long, mid]).count == 1)
        #expect([long: "x"][short] == "x")
        #expect(long.width == .bits128)
        #expect(long.description == "0000180F-0000-1000-8000-00805F9B34FB")
        #expect(long.shortened.width == .bits16)
        #expect(long.shortened.description == "180F")
        #expect(BluetoothUUID(0x180F) != BluetoothUUID(0x1809))
    }

    @Test("text forms", arguments: [
        ("180F", "180F"), ("0x180F", "180F"), ("0X180f", "180F"), ("180f", "180F"),
        ("0000180F", "0000180F"), ("0x0000180F", "0000180F"),
        ("0000180f-0000-1000-8000-00805f9b34fb", "0000180F-0000-1000-8000-00805F9B34FB"),
        ("0000180f00001000800000805f9b34fb", "0000180F-0000-1000-8000-00805F9B34FB"),
    ])
    func parsing(text: String, description: String) throws {
        let uuid = try #require(BluetoothUUID(text))
        #expect(uuid.description == description)
        #expect(uuid == BluetoothUUID(0x180F))
        #expect(BluetoothUUID(uuid.description) == uuid)
    }

    @Test("rejects bad text", arguments: [
        "", "18F", "180G", "0x", "0x180", "12345", "+180", "-180", "180F ", " 180F", "0x+180",
        "0000180f-0000-1000-8000-00805f9b34f", "0000180f-0000-1000-8000-00805f9b34fbb",
        "0000180f00000-1000-8000-00805f9b34fb", "0000180f-0000-1000-8000_00805f9b34fb",
        "0x0000180f-0000-1000-8000-00805f9b34fb", "zzzz180f-0000-1000-8000-00805f9b34fb",
        "0000180f-0000-1000-8000-00805f9b34fg",
    ])
    func rejects(text: String) {
        #expect(BluetoothUUID(text) == nil)
    }

    @Test("wire form must be 2, 4 or 16 octets")
    func wireLengths() {
        #expect(BluetoothUUID(littleEndian: [0x0F, 0x18]) == BluetoothUUID(0x180F))
        #expect(BluetoothUUID(littleEndian: [0x0F, 0x18, 0x00, 0x00])?.width == .bits32)
        #expect(BluetoothUUID(littleEndian: [0x0F]) == nil)
        #expect(BluetoothUUID(littleEndian: [0x0F, 0x18, 0x00]) == nil)
        #expect(BluetoothUUID(littleEndian: [UInt8](repeating: 0, count: 15)) == nil)
        #expect(BluetoothUUID(uuid128: [UInt8](repeating: 0, count: 4)) == nil)
    }

    @Test("names of well-known UUIDs", arguments: [
        (UInt16(0x1800), "Generic Access"), (0x1801, "Generic Attribute"), (0x180A, "Device Information"),
        (0x180F, "Battery"), (0x180D, "Heart Rate"), (0x1809, "Health Thermometer"),
        (0x2A00, "Device Name"), (0x2A01, "Appearance"), (0x2A05, "Service Changed"),
        (0x2A19, "Battery Level"), (0x2A37, "Heart Rate Measurement"), (0x2A38, "Body Sensor Location"),
        (0x2A1C, "Temperature Measurement"), (0x2A29, "Manufacturer Name String"),
        (0x2A24, "Model Number String"), (0x2A25, "Serial Number String"),
        (0x2A26, "Firmware Revision String"), (0x2B2A, "Database Hash"),
        (0x2B29, "Client Supported Features"), (0x2B3A, "Server Supported Features"),
        (0x2800, "Primary Service"), (0x2801, "Secondary Service"), (0x2802, "Include"),
        (0x2803, "Characteristic"), (0x2902, "Client Characteristic Configuration"),
        (0x2901, "Characteristic User Description"),
        (0x2A04, "Peripheral Preferred Connection Parameters"), (0x2AA6, "Central Address Resolution"),
    ])
    func names(value: UInt16, name: String) {
        #expect(BluetoothUUID(value).name == name)
    }

    @Test("names follow the value, not the form")
    func nameAcrossForms() throws {
        #expect(try #require(BluetoothUUID("0000180F-0000-1000-8000-00805F9B34FB")).name == "Battery")
        #expect(BluetoothUUID(0xFFF0).name == nil)
        #expect(BluetoothUUID.clientCharacteristicConfiguration == BluetoothUUID(0x2902))
        #expect(BluetoothUUID.base.description == "00000000-0000-1000-8000-00805F9B34FB")
    }

    @Test("Codable as the description")
    func codable() throws {
        let uuids = [BluetoothUUID(0x180F), BluetoothUUID(UInt32(0xAABB_CCDD)),
                     try #require(BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E"))]
        let data = try JSONEncoder().encode(uuids)
        #expect(String(decoding: data, as: UTF8.self)
                == #"["180F","AABBCCDD","6E400001-B5A3-F393-E0A9-E50E24DCCA9E"]"#)
        let back = try JSONDecoder().decode([BluetoothUUID].self, from: data)
        #expect(back == uuids)
        #expect(back.map(\.width) == [.bits16, .bits32, .bits128])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(BluetoothUUID.self, from: Data(#""nope""#.utf8))
        }
    }
}
