import HCIPackets
// Why a pairing failed, as SMP's Pairing Failed PDU says it.

/// The Reason of a Pairing Failed PDU (Core v5.4 Vol 3 Part H §3.5.5, Table 3.7). Unknown values keep
/// their number; every value prints as "0x04 Confirm Value Failed".
public struct PairingFailureReason: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let passkeyEntryFailed = PairingFailureReason(rawValue: 0x01)
    public static let oobNotAvailable = PairingFailureReason(rawValue: 0x02)
    public static let authenticationRequirements = PairingFailureReason(rawValue: 0x03)
    public static let confirmValueFailed = PairingFailureReason(rawValue: 0x04)
    public static let pairingNotSupported = PairingFailureReason(rawValue: 0x05)
    public static let encryptionKeySize = PairingFailureReason(rawValue: 0x06)
    public static let commandNotSupported = PairingFailureReason(rawValue: 0x07)
    public static let unspecifiedReason = PairingFailureReason(rawValue: 0x08)
    public static let repeatedAttempts = PairingFailureReason(rawValue: 0x09)
    public static let invalidParameters = PairingFailureReason(rawValue: 0x0A)
    public static let dhKeyCheckFailed = PairingFailureReason(rawValue: 0x0B)
    public static let numericComparisonFailed = PairingFailureReason(rawValue: 0x0C)
    public static let brEdrPairingInProgress = PairingFailureReason(rawValue: 0x0D)
    public static let crossTransportKeyDerivationNotAllowed = PairingFailureReason(rawValue: 0x0E)
    public static let keyRejected = PairingFailureReason(rawValue: 0x0F)

    /// The Core spec's name of the reason, or "Reserved" for a value it does not define.
    public var name: String {
        switch rawValue {
        case 0x01: "Passkey Entry Failed"
        case 0x02: "OOB Not Available"
        case 0x03: "Authentication Requirements"
        case 0x04: "Confirm Value Failed"
        case 0x05: "Pairing Not Supported"
        case 0x06: "Encryption Key Size"
        case 0x07: "Command Not Supported"
        case 0x08: "Unspecified Reason"
        case 0x09: "Repeated Attempts"
        case 0x0A: "Invalid Parameters"
        case 0x0B: "DHKey Check Failed"
        case 0x0C: "Numeric Comparison Failed"
        case 0x0D: "BR/EDR pairing in progress"
        case 0x0E: "Cross-transport Key Derivation/Generation not allowed"
        case 0x0F: "Key Rejected"
        default: "Reserved"
        }
    }

    public var description: String { "0x\(hex2(rawValue)) \(name)" }
}
