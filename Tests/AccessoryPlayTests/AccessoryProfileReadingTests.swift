import AccessoryPlay
import Foundation
import HCI
import RigFormat
import Testing

/// The profiles in profiles/ read, and build the databases the Bluetooth Assigned Numbers describe.
@Suite struct AccessoryProfileReadingTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func message(_ text: String) -> String? {
        do { _ = try AccessoryProfile(reading: try RigDocument.parse(Array(text.utf8))); return nil } catch { return error.message }
    }

    /// Assigned Numbers §3.4 (GATT services): Heart Rate 0x180D, Health Thermometer 0x1809, Battery 0x180F;
    /// §3.8 (characteristics): Heart Rate Measurement 0x2A37, Temperature Measurement 0x2A1C, Battery Level 0x2A19.
    @Test(arguments: [("heart-rate", 0x180D, 0x2A37), ("thermometer", 0x1809, 0x2A1C), ("battery-only", 0x180F, 0x2A19)])
    func everyShippedProfileServesItsAssignedService(name: String, service: Int, characteristic: Int) throws {
        let profile = try AccessoryProfile.read(file: Self.root.appendingPathComponent("profiles/\(name).json").path)
        let database = try profile.database()
        #expect(database.valueHandle(of: BluetoothUUID(UInt16(characteristic)), in: BluetoothUUID(UInt16(service))) != nil)
        #expect(profile.advertisedServices.contains(BluetoothUUID(UInt16(service))))
    }

    @Test func theCustomExampleProtectsItsLog() throws {
        let profile = try AccessoryProfile.read(file: Self.root.appendingPathComponent("profiles/custom-example.json").path)
        let database = try profile.database()
        let uuid = try #require(BluetoothUUID("5a5e1003-6b1c-4d9e-9a5f-000000000001"))
        let handle = try #require(database.valueHandle(of: uuid))
        #expect(database.permissions(at: handle) == .readEncrypted)
        #expect(database.value(at: handle) == Array("opened 08:02 by key 3".utf8))
    }

    @Test func errorsNameTheField() {
        #expect(message(#"{"name": "A", "services": [{"profile": "heart-rat"}]}"#) == "services[0].profile: unknown profile 'heart-rat'; did you mean heart-rate?")
        #expect(message(#"{"name": "A", "services": [{"uuid": "180D", "characteristics": [{"uuid": "2A37", "properties": ["notfy"]}]}]}"#)
                == "services[0].characteristics[0].properties[0]: unknown property 'notfy'; did you mean notify?")
        #expect(message(#"{"name": "A", "advertising": {"interval_ms": 5}}"#) == "advertising.interval_ms: expected an advertising interval from 20 to 10240 ms, found 5")
        #expect(message(#"{"nme": "A"}"#) == "nme: unknown key; did you mean name?")
        #expect(message(#"{"name": "A", "services": [{"profile": "battery", "uuid": "180F"}]}"#)?.hasPrefix("services[0].uuid: not allowed beside \"profile\"") == true)
    }
}
