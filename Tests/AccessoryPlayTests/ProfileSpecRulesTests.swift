import AccessoryPlay
import Roles
import StrictJSON
import Testing

/// A profile holds only what the Core spec lets a GATT server and a random static address be: the checks a
/// hostile-use review found missing (an all-ones identity, a second GAP or GATT service, declarations and
/// descriptors served as characteristics).
@Suite struct ProfileSpecRulesTests {
    func message(_ text: String) -> String? {
        do { _ = try AccessoryProfile(reading: try InputDocument.parse(Array(text.utf8))); return nil } catch { return error.message }
    }

    func identity(_ address: String) -> String? {
        message(#"{"name": "A", "address": {"type": "random-static", "identity": ""# + address + #"", "irk_hex": "ec0234a357c8ad05341010a60a397d9b"}}"#)
    }

    /// Core v5.4 Vol 6 Part B §1.3.2.1: the two most significant bits of a static address are 1, and of the
    /// 46 random bits at least one is 0 and at least one is 1.
    @Test func anIdentityWhoseRandomPartIsAllOnesOrAllZerosIsRefused() {
        let expected = #"address.identity: expected a random static address (the two top bits 11, the other 46 bits neither all 0 nor all 1), like "C3:11:22:33:44:55", found "#
        #expect(identity("FF:FF:FF:FF:FF:FF") == expected + #""FF:FF:FF:FF:FF:FF""#)
        #expect(identity("C0:00:00:00:00:00") == expected + #""C0:00:00:00:00:00""#)
        #expect(identity("7F:FF:FF:FF:FF:FE") == expected + #""7F:FF:FF:FF:FF:FE""#, "top bits 01: a resolvable private address's form")
        for valid in ["C3:11:22:33:44:55", "C0:00:00:00:00:01", "FF:FF:FF:FF:FF:FE", "FE:FF:FF:FF:FF:FF"] {
            #expect(identity(valid) == nil, "\(valid)")
        }
    }

    @Test(arguments: ["1800", "1801", "00001800-0000-1000-8000-00805f9b34fb", "00001801-0000-1000-8000-00805F9B34FB"])
    func aSecondGAPOrGATTServiceIsRefused(uuid: String) throws {
        let found = try #require(message(#"{"name": "A", "services": [{"profile": "battery"}, {"uuid": ""# + uuid + #"", "characteristics": []}]}"#))
        let which = uuid.lowercased().contains("1800") ? "the GAP service (0x1800)" : "the GATT service (0x1801)"
        #expect(found.hasPrefix("services[1].uuid: the accessory serves \(which) itself"), "\(found)")
        #expect(found.hasSuffix("and a GATT server has one (Core v5.4 Vol 3 Part \(which.contains("GAP") ? "C §12" : "G §7"))"), "\(found)")
    }

    /// Assigned Numbers §3.6 (GATT declarations) and §3.7 (GATT descriptors).
    @Test(arguments: [
        ("2800", "0x2800 is the Primary Service declaration's type (Assigned Numbers §3.6)"),
        ("2801", "0x2801 is the Secondary Service declaration's type (Assigned Numbers §3.6)"),
        ("2802", "0x2802 is the Include declaration's type (Assigned Numbers §3.6)"),
        ("2803", "0x2803 is the Characteristic declaration's type (Assigned Numbers §3.6)"),
        ("2900", "0x2900 is the Characteristic Extended Properties descriptor's type (Assigned Numbers §3.7)"),
        ("2901", "0x2901 is the Characteristic User Description descriptor's type (Assigned Numbers §3.7)"),
        ("2902", "0x2902 is the Client Characteristic Configuration descriptor's type (Assigned Numbers §3.7)"),
        ("00002902-0000-1000-8000-00805F9B34FB", "0x2902 is the Client Characteristic Configuration descriptor's type (Assigned Numbers §3.7)"),
        ("2903", "0x2903 is the Server Characteristic Configuration descriptor's type (Assigned Numbers §3.7)"),
        ("2904", "0x2904 is the Characteristic Presentation Format descriptor's type (Assigned Numbers §3.7)"),
        ("2905", "0x2905 is the Characteristic Aggregate Format descriptor's type (Assigned Numbers §3.7)"),
        ("2906", "0x2906 is the Valid Range descriptor's type (Assigned Numbers §3.7)"),
        ("2917", "0x2917 is the Cooking Trigger Setting descriptor's type (Assigned Numbers §3.7)"),
        ("29FF", "0x29FF is in the block of GATT descriptor types (Assigned Numbers §3.7)"),
        ("2804", "0x2804 is in the block of GATT declaration types (Assigned Numbers §3.6)"),
    ])
    func aDeclarationOrDescriptorTypeIsNoCharacteristic(uuid: String, why: String) {
        let profile = #"{"name": "A", "services": [{"uuid": "180D", "characteristics": [{"uuid": "2A37", "properties": ["notify"]}, "#
            + #"{"uuid": ""# + uuid + #"", "properties": ["read"]}]}]}"#
        #expect(message(profile) == "services[0].characteristics[1].uuid: \(why), not a characteristic: a client would read it as one")
        #expect(message(#"{"name": "A", "services": [{"uuid": ""# + uuid + #"", "characteristics": []}]}"#) == "services[0].uuid: \(why), not a service")
    }

    @Test func theTypesAroundTheBlocksAreCharacteristicsStill() {
        for uuid in ["27FF", "2A00", "2A37", "2B29", "6e400001-b5a3-f393-e0a9-e50e24dcca9e"] {
            #expect(message(#"{"name": "A", "services": [{"uuid": "FFF0", "characteristics": [{"uuid": ""# + uuid + #"", "properties": ["read"]}]}]}"#) == nil, "\(uuid)")
        }
    }

    @Test(arguments: ["5", "[\"a\"]", "{}", "null", "true"])
    func aDescriptionIsAString(written: String) {
        #expect(message(#"{"name": "A", "description": "# + written + "}") == "description: expected a string (what the accessory is), found \(written == "[\"a\"]" ? "[\"a\"]" : written)")
        #expect(message(#"{"$schema": "# + written + #", "name": "A"}"#)?.hasPrefix("$schema: expected a string naming the profile's JSON Schema") == true)
        #expect(message(#"{"name": "A", "description": "", "$schema": "./profile.schema.json"}"#) == nil)
        #expect(message(#"{"name": "A", "description": "a heart-rate strap that drops its link"}"#) == nil)
    }

    /// Core v5.4 Vol 3 Part F §3.2.9: an attribute value is at most 512 octets; a User Description descriptor's
    /// value (`description`) and a text value are attribute values.
    @Test func aCharacteristicsTextAndDescriptionFitAnAttribute() {
        func characteristic(_ fields: String) -> String? {
            message(#"{"name": "A", "services": [{"uuid": "FFF0", "characteristics": [{"uuid": "FFF1", "properties": ["read"], "# + fields + "}]}]}")
        }
        let fits = String(repeating: "é", count: 256)
        #expect(characteristic(#""description": ""# + fits + #"", "value_text": ""# + fits + #"""#) == nil)
        #expect(characteristic(#""description": ""# + fits + #"x""#)
                == "services[0].characteristics[0].description: 513 octets, longer than an attribute value can be (512, Core v5.4 Vol 3 Part F §3.2.9)")
        #expect(characteristic(#""value_text": ""# + String(repeating: "v", count: 600) + #"""#)
                == "services[0].characteristics[0].value_text: 600 octets, longer than an attribute value can be (512, Core v5.4 Vol 3 Part F §3.2.9)")
        #expect(characteristic(#""description": 7"#) == "services[0].characteristics[0].description: expected a user description (a non-empty string), found 7")
    }
}
