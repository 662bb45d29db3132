import HCIPackets
import GATT
// What an accessory on a bench does about security, as its rig declares it.

/// How an accessory secures itself (a rig accessory's `security`): the pairing it accepts, the passkey
/// it displays, and what its protected characteristic asks of the link. A simulated accessory's firmware
/// does exactly this; a real one is checked against it by the security suites.
public struct AccessorySecurity: Sendable, Hashable {
    /// "just-works", "passkey" or "numeric-comparison".
    public var method: String
    /// The passkey it displays for Passkey Entry (a lock with a screen, a label with a fixed code).
    public var passkey: UInt32?
    /// Legacy pairing only (no LE Secure Connections).
    public var legacy: Bool
    /// What reading its protected characteristic needs.
    public var protection: ProtectionLevel
    /// The characteristic that holds protected data (default: HIL Protected Data).
    public var protectedCharacteristic: BluetoothUUID
    /// It advertises with a new resolvable private address at every boot (LE privacy): a central finds it
    /// again only by resolving that address with the IRK the pairing distributed.
    public var privacy: Bool
    /// The value the simulated accessory's protected characteristic holds (Bumble's secure accessory too).
    public static let protectedValue = Array("secret-42".utf8)

    public init(method: String, passkey: UInt32? = nil, legacy: Bool = false, protection: ProtectionLevel = .encryption,
                protectedCharacteristic: BluetoothUUID = .protectedData, privacy: Bool = false) {
        self.method = method
        self.passkey = passkey
        self.legacy = legacy
        self.protection = protection
        self.protectedCharacteristic = protectedCharacteristic
        self.privacy = privacy
    }

    /// The options the accessory's firmware answers a Pairing Request with (it displays, never enters).
    public func accessoryOptions(rejects: Bool) throws(SecurityError) -> PairingOptions {
        var options = try PairingOptions(method: method, passkey: passkey, displays: true, legacy: legacy)
        if rejects { options.rejectsWith = .pairingNotSupported }
        return options
    }

    /// The options a central pairs with to meet this accessory's method: it enters the passkey the
    /// accessory displays, and confirms Numeric Comparison.
    public func centralOptions() throws(SecurityError) -> PairingOptions {
        try PairingOptions(method: method, passkey: passkey, displays: false, confirm: true, legacy: legacy)
    }
}
