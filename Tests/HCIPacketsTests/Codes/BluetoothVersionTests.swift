import Foundation
import Testing
@testable import HCIPackets

@Suite("BluetoothVersion")
struct BluetoothVersionTests {
    @Test("Assigned Numbers version table", arguments: [
        (UInt8(0), "1.0b"), (1, "1.1"), (2, "1.2"), (3, "2.0+EDR"), (4, "2.1+EDR"),
        (5, "3.0+HS"), (6, "4.0"), (7, "4.1"), (8, "4.2"), (9, "5.0"), (10, "5.1"),
        (11, "5.2"), (12, "5.3"), (13, "5.4"), (14, "6.0"), (15, "6.1"),
    ])
    func mapping(number: UInt8, name: String) {
        let version = BluetoothVersion(rawValue: number)
        #expect(version.name == name)
        #expect(version.description == name)
        #expect(version.isKnown)
    }

    @Test("unknown numbers")
    func unknown() {
        #expect(BluetoothVersion(rawValue: 0x20).name == "unknown (0x20)")
        #expect(BluetoothVersion(rawValue: 16).description == "unknown (0x10)")
        #expect(!BluetoothVersion(rawValue: 0xFF).isKnown)
    }

    @Test("constants and order")
    func constants() {
        #expect(BluetoothVersion.v4_0.rawValue == 6)
        #expect(BluetoothVersion.v5_4.rawValue == 13)
        #expect(BluetoothVersion.v6_1.rawValue == 15)
        #expect(BluetoothVersion.v4_2 < .v5_0)
        #expect(BluetoothVersion.v5_3 >= .v5_2)
        #expect(BluetoothVersion(13) == .v5_4)
    }

    @Test("Codable as the number")
    func codable() throws {
        let data = try JSONEncoder().encode(BluetoothVersion.v5_2)
        #expect(String(decoding: data, as: UTF8.self) == "11")
        #expect(try JSONDecoder().decode(BluetoothVersion.self, from: data) == .v5_2)
    }
}
