import Foundation
import HCIPackets
import GATT
import MCUmgr
import SMP
import StrictJSON

extension AccessoryProfile {
    /// The keys of a profile file's top level.
    static let keys = ["$schema", "name", "description", "advertising", "services", "notify", "address", "security", "mcumgr"]

    /// Reads a profile file strictly, as rigs are read: an unknown key, a missing field or a value of the
    /// wrong kind is one `InputError` naming the field (`services[1].characteristics[0].properties[2]: unknown
    /// property 'notfy'; did you mean notify?`).
    package static func read(file path: String) throws(InputError) -> AccessoryProfile {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return try InputDocument.read(file: path) { value throws(InputError) in try AccessoryProfile(reading: value, directory: directory) }
    }

    /// Reads a profile: `name` (required), `description`, `advertising` (`interval_ms`, `services`) and
    /// `services`, each a ready profile (`{"profile": "heart-rate"}`) or a custom service, `notify`, the
    /// characteristics that notify on their own (`NotificationSource`; a file's path is relative to `directory`),
    /// and `mcumgr`, which makes it an MCUmgr SMP server (`AccessoryUpdates`; not advertised unless listed).
    package init(reading value: InputValue, directory: String = ".") throws(InputError) {
        self = try value.object(keys: Self.keys, "a profile object") { fields throws(InputError) -> AccessoryProfile in
            _ = try fields.value("$schema")?.string("a string naming the profile's JSON Schema", allowEmpty: true)
            _ = try fields.value("description")?.string("a string (what the accessory is)", allowEmpty: true)
            let name = try fields.string("name", "the accessory's name (what it advertises)")
            guard name.utf8.count <= 248 else { throw try fields.required("name", "").problem("longer than 248 octets (the GAP Device Name limit)") }
            var services: [GATTService] = []
            for item in try fields.value("services")?.array("an array of services") ?? [] {
                services.append(try Self.service(item))
            }
            var interval = 100.0
            var advertised: [BluetoothUUID]?
            if let advertising = fields.value("advertising") {
                try advertising.object(keys: ["interval_ms", "services"]) { ad throws(InputError) in
                    interval = try ad.number("interval_ms", in: 20...10_240, "an advertising interval from 20 to 10240 ms", default: 100)
                    if let list = ad.value("services") {
                        advertised = try list.array("an array of service UUIDs").map { (item: InputValue) throws(InputError) -> BluetoothUUID in try Self.uuid(item) }
                    }
                }
            }
            var sources: [NotificationSource] = []
            for item in try fields.value("notify")?.array("an array of notification sources") ?? [] {
                let source = try NotificationSource(reading: item, directory: directory)
                let notifying = services.flatMap(\.characteristics).contains { $0.uuid == source.characteristic && $0.properties.contains(.notify) }
                guard notifying else {
                    throw try item.object(keys: NotificationSource.keys) { entry throws(InputError) -> InputError in
                        try entry.required("characteristic", "").problem("no characteristic \(source.characteristic) with the notify property in the profile's services")
                    }
                }
                sources.append(source)
            }
            var profile = AccessoryProfile(name: name, advertisingIntervalMilliseconds: interval,
                                           advertisedServices: advertised ?? services.map(\.uuid), services: services, notificationSources: sources)
            if let address = fields.value("address") { (profile.addressKind, profile.identity) = try Self.address(address) }
            if let security = fields.value("security") { profile.security = try Self.security(security) }
            if let updates = fields.value("mcumgr") {
                if services.contains(where: { $0.uuid == MCUmgrService.service }) {
                    throw updates.problem("the services list the MCUmgr SMP service \(MCUmgrService.service) too: \"mcumgr\" adds it")
                }
                profile.updates = try AccessoryUpdates(reading: updates, directory: directory)
                profile.services.append(MCUmgrService.definition())
            }
            return profile
        }
    }

    /// `{"type": "public" | "random-static" | "resolvable-private", "identity": "C3:11:22:33:44:55", "irk_hex": "…"}`:
    /// the identity (a random static address) and the IRK (16 octets, most significant first, as the Core spec
    /// writes keys) are optional, made fresh for each run when absent, and not for a public address.
    static func address(_ value: InputValue) throws(InputError) -> (AddressKind, LocalIdentity?) {
        try value.object(keys: ["type", "identity", "irk_hex"], "an address object") { fields throws(InputError) -> (AddressKind, LocalIdentity?) in
            let kinds = AddressKind.allCases.map(\.rawValue)
            let kind = try fields.required("type", "an address type (\(kinds.joined(separator: ", ")))")
                .choice("an address type", unknown: "address type", as: AddressKind.self)
            if kind == .publicAddress {
                for key in ["identity", "irk_hex"] where fields.has(key) {
                    throw try fields.required(key, "").problem("a public address has no identity or IRK of ours: it is the controller's")
                }
                return (kind, nil)
            }
            guard fields.has("identity") || fields.has("irk_hex") else { return (kind, nil) }
            // Core v5.4 Vol 6 Part B §1.3.2.1: the two most significant bits 1, and of the other 46 (the random part) at
            // least one 0 and at least one 1.
            let expectedAddress = "a random static address (the two top bits 11, the other 46 bits neither all 0 nor all 1), like \"C3:11:22:33:44:55\""
            let identityValue = try fields.required("identity", expectedAddress + ", with irk_hex")
            guard let address = BDAddress(try identityValue.string(expectedAddress)), address.isStaticRandom, address.hasValidRandomPart else {
                throw identityValue.fail(expectedAddress)
            }
            let irkValue = try fields.required("irk_hex", "the IRK as 32 hex digits, with identity")
            guard let irk = hexBytes(try irkValue.string("the IRK as 32 hex digits")), irk.count == 16 else { throw irkValue.fail("the IRK as 32 hex digits") }
            return (kind, LocalIdentity(address: address, addressType: .random, identityResolvingKey: irk.reversed()))
        }
    }

    /// `{"pairing": "just-works" | "passkey" | "numeric-comparison", "passkey": 123456, "legacy": false}`: how the
    /// accessory pairs (it displays a passkey, never enters one) and bonds.
    static func security(_ value: InputValue) throws(InputError) -> AccessorySecurity {
        try value.object(keys: ["pairing", "passkey", "legacy"], "a security object") { fields throws(InputError) -> AccessorySecurity in
            let methods = ["just-works", "passkey", "numeric-comparison"]
            let methodValue = try fields.required("pairing", "a pairing method (\(methods.joined(separator: ", ")))")
            let method = try methodValue.word("a pairing method", unknown: "pairing method", among: methods)
            let passkey = try fields.value("passkey").map { (value: InputValue) throws(InputError) -> UInt32 in UInt32(try value.integer(in: 0...999_999, "a six-digit passkey")) }
            if method == "passkey" && passkey == nil { throw methodValue.problem("passkey pairing needs \"passkey\": the six digits the accessory displays") }
            if method != "passkey", passkey != nil { throw try fields.required("passkey", "").problem("only passkey pairing has a passkey") }
            return AccessorySecurity(method: method, passkey: passkey, legacy: try fields.bool("legacy", default: false))
        }
    }

    static func uuid(_ value: InputValue) throws(InputError) -> BluetoothUUID {
        let expected = "a UUID (16-bit like \"180D\" or 128-bit like \"6e400001-b5a3-f393-e0a9-e50e24dcca9e\")"
        guard let uuid = BluetoothUUID(try value.string(expected)) else { throw value.fail(expected) }
        return uuid
    }

    static func service(_ value: InputValue) throws(InputError) -> GATTService {
        try value.object(keys: ["profile", "uuid", "primary", "characteristics"], "a service object") { fields throws(InputError) -> GATTService in
            if let profile = fields.value("profile") {
                try fields.restrict(to: ["profile"], what: "not allowed beside \"profile\"")
                let known = StandardProfile.allCases.map(\.rawValue)
                let text = try profile.string("a ready profile (\(known.joined(separator: ", ")))")
                guard let standard = StandardProfile(name: text) else {
                    let hint = DidYouMean.question(for: text, among: known).map { "; \($0)" } ?? " (known: \(known.joined(separator: ", ")))"
                    throw profile.problem("unknown profile '\(JSONValue.excerpt(text))'\(hint)")
                }
                return standard.service
            }
            let uuidValue = try fields.required("uuid", "a service UUID (or \"profile\": a ready profile)")
            let uuid = try uuid(uuidValue)
            if let problem = ReservedAttributeTypes.serviceProblem(uuid) { throw uuidValue.problem(problem) }
            var characteristics: [GATTCharacteristic] = []
            for item in try fields.value("characteristics")?.array("an array of characteristics") ?? [] {
                characteristics.append(try characteristic(item))
            }
            return GATTService(uuid: uuid, isPrimary: try fields.bool("primary", default: true), characteristics: characteristics)
        }
    }

    static let propertyNames: [(String, GATTCharacteristicProperties)] = [
        ("broadcast", .broadcast), ("read", .read), ("write-without-response", .writeWithoutResponse), ("write", .write),
        ("notify", .notify), ("indicate", .indicate), ("signed-write", .authenticatedSignedWrites),
    ]

    static let permissionNames: [(String, GATTPermissions)] = [
        ("read", .read), ("read-encrypted", .readEncrypted), ("read-authenticated", .readAuthenticated),
        ("write", .write), ("write-encrypted", .writeEncrypted), ("write-authenticated", .writeAuthenticated),
    ]

    static func characteristic(_ value: InputValue) throws(InputError) -> GATTCharacteristic {
        let keys = ["uuid", "properties", "permissions", "value_hex", "value_text", "description"]
        return try value.object(keys: keys, "a characteristic object") { fields throws(InputError) -> GATTCharacteristic in
            let uuidValue = try fields.required("uuid", "a characteristic UUID")
            let uuid = try uuid(uuidValue)
            if let problem = ReservedAttributeTypes.characteristicProblem(uuid) { throw uuidValue.problem(problem) }
            let properties = try names(try fields.required("properties", "an array of properties"), Self.propertyNames, what: "property")
            let permissions = try fields.value("permissions").map { (list: InputValue) throws(InputError) -> GATTPermissions in
                try names(list, Self.permissionNames, what: "permission")
            }
            if fields.has("value_hex") && fields.has("value_text") {
                throw try fields.required("value_text", "").problem("give value_hex or value_text, not both")
            }
            var bytes: [UInt8] = []
            if let hex = fields.value("value_hex") {
                let expected = "hex octets like \"4801\" (at most 512)"
                guard let parsed = Self.hexBytes(try hex.string(expected, allowEmpty: true)), parsed.count <= 512 else { throw hex.fail(expected) }
                bytes = parsed
            } else if let textValue = fields.value("value_text") {
                let text = try textValue.string("a string", allowEmpty: true)
                guard text.utf8.count <= Self.attributeValueOctets else { throw textValue.problem(Self.longerThanAnAttribute(text)) }
                bytes = Array(text.utf8)
            }
            var descriptors: [GATTDescriptor] = []
            if let descriptionValue = fields.value("description") {
                let text = try descriptionValue.string("a user description (a non-empty string)")
                guard text.utf8.count <= Self.attributeValueOctets else { throw descriptionValue.problem(Self.longerThanAnAttribute(text)) }
                descriptors = [GATTDescriptor.userDescription(text)]
            }
            return GATTCharacteristic(uuid: uuid, properties: properties, permissions: permissions, value: .bytes(bytes), descriptors: descriptors)
        }
    }

    /// The longest value an attribute has (Core v5.4 Vol 3 Part F §3.2.9).
    static let attributeValueOctets = 512

    /// "`N` octets, longer than an attribute value can be (512, Core v5.4 Vol 3 Part F §3.2.9)".
    static func longerThanAnAttribute(_ text: String) -> String {
        "\(text.utf8.count) octets, longer than an attribute value can be (\(attributeValueOctets), Core v5.4 Vol 3 Part F §3.2.9)"
    }

    /// An array of names, each from `table`, as the union of their options.
    static func names<Option: OptionSet>(_ value: InputValue, _ table: [(String, Option)], what: String) throws(InputError) -> Option {
        let known = table.map(\.0)
        var result: Option = []
        for item in try value.array("an array of \(what) names (\(known.joined(separator: ", ")))") {
            let text = try item.word("a \(what) name", unknown: what, among: known)
            if let option = table.first(where: { $0.0 == text })?.1 { result.formUnion(option) }
        }
        return result
    }

    /// "4801", "48 01", "0x4801" → [0x48, 0x01]; nil for anything else.
    static func hexBytes(_ text: String) -> [UInt8]? {
        parseHex(text.hasPrefix("0x") || text.hasPrefix("0X") ? String(text.dropFirst(2)) : text)
    }
}
