import HCIPackets
/// One secret field of a packet: its name in the Core spec and where it lies.
struct SecretField: Sendable, Hashable {
    /// What the Core spec calls the field, e.g. `Long_Term_Key`.
    let name: String
    /// Its first octet, counted from the start of the parameters (or PDU) it is in; see `CaptureSecrets`.
    let offset: Int
    /// Its length in octets.
    let length: Int

    /// The octets it covers.
    var range: Range<Int> { offset..<(offset + length) }
}

/// The fields a capture redacts (`CaptureKeys.redacted`): what lets someone holding the capture decrypt the
/// link, derive its keys or impersonate either side later.
///
/// Kept in clear, because they are not secret: Pairing Request/Response, Pairing Public Key (public by
/// definition: the DHKey needs a private key that never leaves the host), Identity Address Information,
/// Central Identification's EDIV and Rand and the same values in LE Enable Encryption and the LE Long Term Key
/// Request event (they name a key, not protect it: the central sends them in clear in LL_ENC_REQ at every
/// encryption), Pairing Failed, Security Request, Keypress Notification, handles and addresses.
enum CaptureSecrets {
    // MARK: SMP (Core v5.4 Vol 3 Part H §3.5–3.6); offsets in the PDU, whose octet 0 is the code.

    /// The secret fields of the SMP PDU with command code `code`:
    /// - Pairing Confirm (0x03) `Confirm_Value` and Pairing Random (0x04) `Random_Value`: with both, legacy
    ///   pairing's TK falls to a search (Just Works' is 0, a passkey's at most 999999) and with it the STK that
    ///   encrypts the key distribution; in Passkey Entry they reveal the passkey, which a fixed-passkey
    ///   accessory keeps for life; in Secure Connections Na and Nb are inputs of f5 (the LTK) and f6 (the DHKey
    ///   check).
    /// - Encryption Information (0x06) `Long_Term_Key`: the link's key.
    /// - Identity Information (0x08) `Identity_Resolving_Key`: resolves, and forges, the device's private addresses.
    /// - Signing Information (0x0A) `Signature_Key` (CSRK): signs data for the device.
    /// - Pairing DHKey Check (0x0D) `DHKey_Check`: f6 under the MacKey that f5 derives beside the LTK.
    static func smp(code: UInt8) -> [SecretField] {
        switch code {
        case 0x03: [SecretField(name: "Confirm_Value", offset: 1, length: 16)]
        case 0x04: [SecretField(name: "Random_Value", offset: 1, length: 16)]
        case 0x06: [SecretField(name: "Long_Term_Key", offset: 1, length: 16)]
        case 0x08: [SecretField(name: "Identity_Resolving_Key", offset: 1, length: 16)]
        case 0x0A: [SecretField(name: "Signature_Key", offset: 1, length: 16)]
        case 0x0D: [SecretField(name: "DHKey_Check", offset: 1, length: 16)]
        default: []
        }
    }

    /// The L2CAP fixed channels that carry SMP: LE (0x0006) and BR/EDR (0x0007) (Core v5.4 Vol 3 Part A §2.1).
    static func isSMPChannel(_ channel: UInt16) -> Bool {
        channel == L2CAPChannelID.smp || channel == 0x0007
    }

    // MARK: HCI commands (Core v5.4 Vol 4 Part E §7); offsets in the command's parameters.

    /// The secret fields of the command with `opcode`:
    /// - LE Encrypt (§7.8.22) `Key` and `Plaintext_Data`: a host that runs the security function e on the
    ///   controller passes it the IRK, TK or STK and the pairing's random values.
    /// - LE Enable Encryption (§7.8.24) `Long_Term_Key` (the LTK, or legacy pairing's STK).
    /// - LE Long Term Key Request Reply (§7.8.25) `Long_Term_Key`.
    /// - LE Add Device To Resolving List (§7.8.38) `Peer_IRK` and `Local_IRK`.
    /// - Link Key Request Reply (§7.1.10) `Link_Key` and PIN Code Request Reply (§7.1.12) `PIN_Code` (BR/EDR,
    ///   which a host served by `hil serve` may use).
    static func command(_ opcode: HCIOpcode) -> [SecretField] {
        switch opcode {
        case .leEncrypt: [SecretField(name: "Key", offset: 0, length: 16), SecretField(name: "Plaintext_Data", offset: 16, length: 16)]
        case .leEnableEncryption: [SecretField(name: "Long_Term_Key", offset: 12, length: 16)]
        case .leLongTermKeyRequestReply: [SecretField(name: "Long_Term_Key", offset: 2, length: 16)]
        case Self.leAddDeviceToResolvingList: [SecretField(name: "Peer_IRK", offset: 7, length: 16), SecretField(name: "Local_IRK", offset: 23, length: 16)]
        case Self.linkKeyRequestReply: [SecretField(name: "Link_Key", offset: 6, length: 16)]
        case Self.pinCodeRequestReply: [SecretField(name: "PIN_Code", offset: 7, length: 16)]
        default: []
        }
    }

    /// The secret return parameters of the Command Complete for `opcode` (offsets in Return_Parameters, whose
    /// octet 0 is the Status):
    /// - LE Encrypt (§7.8.22) `Encrypted_Data`: the STK, when a host computes s1 on the controller.
    /// - LE Rand (§7.8.23) `Random_Number`: what a host draws its LTK, EDIV/Rand or nonces from.
    static func commandComplete(_ opcode: HCIOpcode) -> [SecretField] {
        switch opcode {
        case .leEncrypt: [SecretField(name: "Encrypted_Data", offset: 1, length: 16)]
        case .leRand: [SecretField(name: "Random_Number", offset: 1, length: 8)]
        default: []
        }
    }

    // MARK: HCI events (Core v5.4 Vol 4 Part E §7.7); offsets in the event's parameters.

    /// The secret fields of the event with `code` (for an LE Meta event, `subevent` is its first parameter,
    /// offset 0):
    /// - Link Key Notification (0x18, §7.7.24) `Link_Key`.
    /// - LE Generate DHKey Complete (LE Meta 0x09, §7.7.65.9) `DH_Key`: with the pairing's nonces, f5 gives the LTK.
    static func event(code: UInt8, subevent: UInt8?) -> [SecretField] {
        switch (code, subevent) {
        case (0x18, _): [SecretField(name: "Link_Key", offset: 6, length: 16)]
        case (0x3E, 0x09): [SecretField(name: "DH_Key", offset: 2, length: 32)]
        default: []
        }
    }

    /// The event code of Command Complete (§7.7.14): Num_HCI_Command_Packets, Command_Opcode, Return_Parameters.
    static let commandCompleteEvent: UInt8 = 0x0E
    /// The event code of LE Meta events (§7.7.65): Subevent_Code, then the subevent's parameters.
    static let leMetaEvent: UInt8 = 0x3E

    /// LE Add Device To Resolving List (§7.8.38).
    static let leAddDeviceToResolvingList = HCIOpcode(ogf: 0x08, ocf: 0x0027)
    /// Link Key Request Reply (§7.1.10).
    static let linkKeyRequestReply = HCIOpcode(ogf: 0x01, ocf: 0x000B)
    /// PIN Code Request Reply (§7.1.12).
    static let pinCodeRequestReply = HCIOpcode(ogf: 0x01, ocf: 0x000D)
}
