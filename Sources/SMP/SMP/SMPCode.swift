import HCIPackets
// The SMP command codes.

/// The code of a Security Manager Protocol command (Core v5.4 Vol 3 Part H §3.3, Table 3.4), the first
/// octet of every PDU on the SMP fixed channel (CID 0x0006).
public enum SMPCode: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case pairingRequest = 0x01
    case pairingResponse = 0x02
    case pairingConfirm = 0x03
    case pairingRandom = 0x04
    case pairingFailed = 0x05
    case encryptionInformation = 0x06
    case centralIdentification = 0x07
    case identityInformation = 0x08
    case identityAddressInformation = 0x09
    case signingInformation = 0x0A
    case securityRequest = 0x0B
    case pairingPublicKey = 0x0C
    case pairingDHKeyCheck = 0x0D
    case pairingKeypressNotification = 0x0E

    /// The length of the PDU's parameters (every SMP command has a fixed length, §3.5–3.6).
    var parameterLength: Int {
        switch self {
        case .pairingRequest, .pairingResponse: 6
        case .pairingConfirm, .pairingRandom, .encryptionInformation, .identityInformation, .signingInformation,
             .pairingDHKeyCheck: 16
        case .pairingFailed, .securityRequest, .pairingKeypressNotification: 1
        case .centralIdentification: 10
        case .identityAddressInformation: 7
        case .pairingPublicKey: 64
        }
    }

    /// The Core spec's name, e.g. "Pairing Confirm (0x03)".
    public var description: String {
        let name = switch self {
        case .pairingRequest: "Pairing Request"
        case .pairingResponse: "Pairing Response"
        case .pairingConfirm: "Pairing Confirm"
        case .pairingRandom: "Pairing Random"
        case .pairingFailed: "Pairing Failed"
        case .encryptionInformation: "Encryption Information"
        case .centralIdentification: "Central Identification"
        case .identityInformation: "Identity Information"
        case .identityAddressInformation: "Identity Address Information"
        case .signingInformation: "Signing Information"
        case .securityRequest: "Security Request"
        case .pairingPublicKey: "Pairing Public Key"
        case .pairingDHKeyCheck: "Pairing DHKey Check"
        case .pairingKeypressNotification: "Pairing Keypress Notification"
        }
        return "\(name) (0x\(hex2(rawValue)))"
    }
}
