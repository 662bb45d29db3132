import AccessoryPlay
import Foundation
import HCIPackets
import SMP
import StrictJSON
import Testing

/// The profiles in profiles/ read, and build the databases the Bluetooth Assigned Numbers describe.
@Suite struct AccessoryProfileReadingTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func message(_ text: String) -> String? {
        do { _ = try AccessoryProfile(reading: try InputDocument.parse(Array(text.utf8))); return nil } catch { return error.message }
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

    /// Core v5.4 Vol 6 Part B §1.3: an identity is a random static address (top bits 11); the IRK is written most
    /// significant octet first, as the spec's sample data writes it, and kept in HCI order.
    @Test func anAddressBlockReadsItsKindIdentityAndIRK() throws {
        let read = try AccessoryProfile(reading: try InputDocument.parse(Array(#"""
            {"name": "A", "address": {"type": "resolvable-private", "identity": "C3:11:22:33:44:55", "irk_hex": "ec0234a357c8ad05341010a60a397d9b"}}
            """#.utf8)))
        #expect(read.addressKind == .resolvablePrivate)
        #expect(read.identity?.address == BDAddress("C3:11:22:33:44:55"))
        // The spec's sample: this IRK resolves 70:81:94:0D:FB:AA (prand 708194, hash 0DFBAA).
        let irk = try #require(read.identity?.identityResolvingKey)
        #expect(ResolvablePrivateAddress.resolves(try #require(BDAddress("70:81:94:0D:FB:AA")), with: irk))
        #expect(message(#"{"name": "A", "address": {"type": "public", "irk_hex": "00"}}"#)
                == "address.irk_hex: a public address has no identity or IRK of ours: it is the controller's")
        #expect(message(#"{"name": "A", "address": {"type": "random-static", "identity": "00:11:22:33:44:55", "irk_hex": "ec0234a357c8ad05341010a60a397d9b"}}"#)?
                .hasPrefix("address.identity: expected a random static address") == true)
        #expect(message(#"{"name": "A", "address": {"type": "random-static", "identity": "C3:11:22:33:44:55"}}"#)?
                .hasPrefix("address.irk_hex: missing") == true)
        #expect(message(#"{"name": "A", "address": {"type": "rpa"}}"#)?.hasPrefix("address.type: unknown address type 'rpa'") == true)
    }

    @Test func aSecurityBlockSaysHowTheAccessoryPairs() throws {
        let read = try AccessoryProfile(reading: try InputDocument.parse(Array(#"{"name": "A", "security": {"pairing": "passkey", "passkey": 123456}}"#.utf8)))
        #expect(read.security?.method == "passkey" && read.security?.passkey == 123_456)
        #expect(message(#"{"name": "A", "security": {"pairing": "passkey"}}"#)?.hasPrefix("security.pairing: passkey pairing needs \"passkey\"") == true)
        #expect(message(#"{"name": "A", "security": {"pairing": "just-works", "passkey": 1}}"#) == "security.passkey: only passkey pairing has a passkey")
        #expect(message(#"{"name": "A", "security": {"pairing": "just-work"}}"#) == "security.pairing: unknown pairing method 'just-work'; did you mean just-works?")
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
