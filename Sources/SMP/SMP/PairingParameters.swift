import HCIPackets
// The fields of Pairing Request and Pairing Response.

/// IO Capability (Core v5.4 Vol 3 Part H §2.3.2, Table 2.4 / §3.5.1).
public enum IOCapability: UInt8, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case displayOnly = 0x00
    case displayYesNo = 0x01
    case keyboardOnly = 0x02
    case noInputNoOutput = 0x03
    case keyboardDisplay = 0x04

    public var description: String {
        switch self {
        case .displayOnly: "DisplayOnly"
        case .displayYesNo: "DisplayYesNo"
        case .keyboardOnly: "KeyboardOnly"
        case .noInputNoOutput: "NoInputNoOutput"
        case .keyboardDisplay: "KeyboardDisplay"
        }
    }
}

/// AuthReq (§3.5.1, Figure 3.3): Bonding_Flags, MITM, SC, Keypress and CT2.
public struct AuthenticationRequirements: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bonding_Flags = 01: the keys are to be stored.
    public static let bonding = AuthenticationRequirements(rawValue: 0x01)
    /// MITM protection requested (an authenticated key).
    public static let mitm = AuthenticationRequirements(rawValue: 0x04)
    /// LE Secure Connections supported and requested.
    public static let secureConnections = AuthenticationRequirements(rawValue: 0x08)
    /// Keypress notifications in Passkey Entry.
    public static let keypress = AuthenticationRequirements(rawValue: 0x10)
    /// Support for the h7 function (CT2).
    public static let ct2 = AuthenticationRequirements(rawValue: 0x20)
}

/// Initiator/Responder Key Distribution (§3.6.1, Figure 3.11): which keys each side sends after encryption.
public struct KeyDistribution: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// EncKey: in legacy pairing, LTK with EDIV and Rand (ignored in Secure Connections).
    public static let encryptionKey = KeyDistribution(rawValue: 0x01)
    /// IdKey: IRK and the identity address.
    public static let identityKey = KeyDistribution(rawValue: 0x02)
    /// SignKey: CSRK.
    public static let signingKey = KeyDistribution(rawValue: 0x04)
    /// LinkKey: derive a BR/EDR link key (not used on an LE-only bench).
    public static let linkKey = KeyDistribution(rawValue: 0x08)
}

/// The parameters of Pairing Request and Pairing Response (§3.5.1, §3.5.2).
public struct PairingFeatures: Sendable, Hashable {
    public var ioCapability: IOCapability
    /// OOB data flag: authentication data from a remote device is present.
    public var oobDataPresent: Bool
    public var authRequirements: AuthenticationRequirements
    /// Maximum Encryption Key Size, 7–16 octets.
    public var maxKeySize: UInt8
    public var initiatorKeys: KeyDistribution
    public var responderKeys: KeyDistribution

    public init(ioCapability: IOCapability, oobDataPresent: Bool = false, authRequirements: AuthenticationRequirements,
                maxKeySize: UInt8 = 16, initiatorKeys: KeyDistribution, responderKeys: KeyDistribution) {
        self.ioCapability = ioCapability
        self.oobDataPresent = oobDataPresent
        self.authRequirements = authRequirements
        self.maxKeySize = maxKeySize
        self.initiatorKeys = initiatorKeys
        self.responderKeys = responderKeys
    }

    /// The six parameter octets, in PDU order.
    var encoded: [UInt8] {
        [ioCapability.rawValue, oobDataPresent ? 1 : 0, authRequirements.rawValue, maxKeySize, initiatorKeys.rawValue, responderKeys.rawValue]
    }

    /// Decodes the six parameter octets; reserved values of IO Capability and OOB flag, and key sizes outside
    /// 7–16, are Invalid Parameters (§3.5.1). Reserved bits of AuthReq and Key Distribution are kept: c1
    /// takes the PDUs as sent, and the session ignores bits it does not know.
    init(decoding bytes: ArraySlice<UInt8>, code: SMPCode) throws(SMPDecodingError) {
        let b = Array(bytes)
        guard b.count == 6 else { throw SMPDecodingError(code: code, what: "parameters are \(b.count) octets, not 6") }
        guard let io = IOCapability(rawValue: b[0]) else {
            throw SMPDecodingError(code: code, what: "IO Capability 0x\(hex2(b[0])) is reserved")
        }
        guard b[1] <= 1 else { throw SMPDecodingError(code: code, what: "OOB data flag 0x\(hex2(b[1])) is reserved") }
        guard (7...16).contains(b[3]) else {
            throw SMPDecodingError(code: code, what: "Maximum Encryption Key Size \(b[3]) is outside 7–16")
        }
        self.init(ioCapability: io, oobDataPresent: b[1] == 1, authRequirements: AuthenticationRequirements(rawValue: b[2]),
                  maxKeySize: b[3], initiatorKeys: KeyDistribution(rawValue: b[4]), responderKeys: KeyDistribution(rawValue: b[5]))
    }
}
