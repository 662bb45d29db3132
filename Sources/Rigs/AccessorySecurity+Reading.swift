import HCIPackets
import GATT
import SMP
import StrictJSON

extension AccessorySecurity {
    private typealias Table = RigFormatTable.Security

    /// Reads `security`: `pairing` ("just-works", "passkey", "numeric-comparison") required; `passkey` (six
    /// digits, required for passkey), `legacy` (false) and `protection` ("encryption" or "authentication";
    /// "authentication" unless the method is Just Works), `protectedCharacteristic` (a UUID, default HIL
    /// Protected Data) and `privacy` (false: advertise with a new resolvable private address at every boot) optional.
    public init(reading value: InputValue) throws(InputError) {
        self = try value.object(Table.shape) { fields throws(InputError) -> Self in
            let methods = Table.pairing.rule.choices ?? []
            let methodValue = try fields.required(Table.pairing)
            let method = try methodValue.string("a pairing method (\(methods.joined(separator: ", ")))")
            guard methods.contains(method) else {
                throw methodValue.problem("unknown pairing method '\(JSONValue.excerpt(method))' (\(methods.joined(separator: ", ")))")
            }
            let passkey = try fields.optionalInteger(Table.passkey).map(UInt32.init)
            if method == "passkey" && passkey == nil { throw methodValue.problem("passkey pairing needs \"passkey\": the six digits the accessory displays") }
            let levels = Table.protection.rule.choices ?? []
            var protection: ProtectionLevel = method == "just-works" ? .encryption : .authentication
            if let level = fields.value("protection") {
                let text = try level.string("a protection level (\(levels.joined(separator: ", ")))")
                guard levels.contains(text), let parsed = ProtectionLevel(rawValue: text) else {
                    throw level.problem("unknown protection '\(JSONValue.excerpt(text))' (\(levels.joined(separator: ", ")))")
                }
                protection = parsed
            }
            if method == "just-works" && protection == .authentication {
                throw methodValue.problem("Just Works gives an unauthenticated key: protection \"authentication\" could never be met")
            }
            var characteristic = BluetoothUUID.protectedData
            if let value = fields.value("protectedCharacteristic") {
                guard let uuid = BluetoothUUID(try value.string("a characteristic UUID")) else { throw value.fail("a characteristic UUID") }
                characteristic = uuid
            }
            return Self(method: method, passkey: passkey, legacy: try fields.bool(Table.legacy), protection: protection,
                        protectedCharacteristic: characteristic, privacy: try fields.bool(Table.privacy))
        }
    }
}
