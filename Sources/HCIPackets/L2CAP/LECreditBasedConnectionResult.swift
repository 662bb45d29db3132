/// The Result field of an L2CAP_LE_CREDIT_BASED_CONNECTION_RSP (Core v5.4 Vol 3 Part A §4.23, Table 4.20),
/// named as the spec names it.
public struct LECreditBasedConnectionResult: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let successful = Self(rawValue: 0x0000)
    public static let spsmNotSupported = Self(rawValue: 0x0002)
    public static let noResourcesAvailable = Self(rawValue: 0x0004)
    public static let insufficientAuthentication = Self(rawValue: 0x0005)
    public static let insufficientAuthorization = Self(rawValue: 0x0006)
    public static let encryptionKeySizeTooShort = Self(rawValue: 0x0007)
    public static let insufficientEncryption = Self(rawValue: 0x0008)
    public static let invalidSourceCID = Self(rawValue: 0x0009)
    public static let sourceCIDAlreadyAllocated = Self(rawValue: 0x000A)
    public static let unacceptableParameters = Self(rawValue: 0x000B)

    /// The spec's name for the result.
    public var name: String {
        switch rawValue {
        case 0x0000: "Connection successful"
        case 0x0002: "SPSM not supported"
        case 0x0004: "no resources available"
        case 0x0005: "insufficient authentication"
        case 0x0006: "insufficient authorization"
        case 0x0007: "encryption key size too short"
        case 0x0008: "insufficient encryption"
        case 0x0009: "invalid Source CID"
        case 0x000A: "Source CID already allocated"
        case 0x000B: "unacceptable parameters"
        default: "reserved result"
        }
    }

    /// "0x0002 SPSM not supported".
    public var description: String { "0x\(hex4(rawValue)) \(name)" }
}
