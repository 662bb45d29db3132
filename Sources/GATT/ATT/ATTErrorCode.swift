import HCIPackets
// ATT Error Response codes.

/// The Error Code of an ATT Error Response (Core v5.4 Vol 3 Part F §3.4.1.1, Table 3.4),
/// plus the Application Error range 0x80–0x9F and the Common Profile and Service
/// Error Codes 0xE0–0xFF of the Core Specification Supplement Part B.
///
/// `init(rawValue:)` never fails, so a reserved code a peer sends is kept and
/// shown by number. It is an `Error` so that GATT value handlers can throw it
/// and have the server answer with it.
public struct ATTErrorCode: RawCode, Hashable, Sendable, Error, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01: the handle is not valid on this server.
    public static let invalidHandle = ATTErrorCode(0x01)
    /// 0x02: the attribute cannot be read.
    public static let readNotPermitted = ATTErrorCode(0x02)
    /// 0x03: the attribute cannot be written.
    public static let writeNotPermitted = ATTErrorCode(0x03)
    /// 0x04: the PDU was invalid.
    public static let invalidPDU = ATTErrorCode(0x04)
    /// 0x05: the attribute needs authentication first.
    public static let insufficientAuthentication = ATTErrorCode(0x05)
    /// 0x06: the server does not support the request.
    public static let requestNotSupported = ATTErrorCode(0x06)
    /// 0x07: the offset is past the end of the attribute.
    public static let invalidOffset = ATTErrorCode(0x07)
    /// 0x08: the attribute needs authorization first.
    public static let insufficientAuthorization = ATTErrorCode(0x08)
    /// 0x09: too many prepared writes are queued.
    public static let prepareQueueFull = ATTErrorCode(0x09)
    /// 0x0A: no attribute in the handle range.
    public static let attributeNotFound = ATTErrorCode(0x0A)
    /// 0x0B: the attribute cannot be read with Read Blob.
    public static let attributeNotLong = ATTErrorCode(0x0B)
    /// 0x0C: the encryption key is too short.
    public static let encryptionKeySizeTooShort = ATTErrorCode(0x0C)
    /// 0x0D: the value's length is invalid for the operation.
    public static let invalidAttributeValueLength = ATTErrorCode(0x0D)
    /// 0x0E: the request failed for an unlikely reason.
    public static let unlikelyError = ATTErrorCode(0x0E)
    /// 0x0F: the attribute needs encryption first.
    public static let insufficientEncryption = ATTErrorCode(0x0F)
    /// 0x10: the type is not a grouping attribute.
    public static let unsupportedGroupType = ATTErrorCode(0x10)
    /// 0x11: not enough resources to complete the request.
    public static let insufficientResources = ATTErrorCode(0x11)
    /// 0x12: the server requests the client to rediscover the database.
    public static let databaseOutOfSync = ATTErrorCode(0x12)
    /// 0x13: the value is not allowed.
    public static let valueNotAllowed = ATTErrorCode(0x13)
    /// 0xFC (CSS Part B §1.2): the write request was rejected.
    public static let writeRequestRejected = ATTErrorCode(0xFC)
    /// 0xFD (CSS Part B §1.2): the CCCD is improperly configured.
    public static let cccdImproperlyConfigured = ATTErrorCode(0xFD)
    /// 0xFE (CSS Part B §1.2): a procedure is already in progress.
    public static let procedureAlreadyInProgress = ATTErrorCode(0xFE)
    /// 0xFF (CSS Part B §1.2): the value is out of range.
    public static let outOfRange = ATTErrorCode(0xFF)

    /// An Application Error (0x80–0x9F), defined by a higher-layer specification; nil outside the range.
    public static func application(_ code: UInt8) -> ATTErrorCode? {
        (0x80...0x9F).contains(code) ? ATTErrorCode(code) : nil
    }

    /// Whether the code is in the Application Error range 0x80–0x9F.
    public var isApplicationError: Bool { (0x80...0x9F).contains(rawValue) }

    /// Every code Table 3.4 and CSS Part B name (not the application range), in order.
    public static let allNamed: [ATTErrorCode] = (UInt8(0x01)...UInt8(0x13)).map(ATTErrorCode.init(rawValue:))
        + [.writeRequestRejected, .cccdImproperlyConfigured, .procedureAlreadyInProgress, .outOfRange]

    /// The specification's name: "Insufficient Authentication", "Application Error",
    /// "Common Profile and Service Error" (0xE0–0xFB) or "Reserved for future use".
    public var name: String {
        switch rawValue {
        case 0x01: "Invalid Handle"
        case 0x02: "Read Not Permitted"
        case 0x03: "Write Not Permitted"
        case 0x04: "Invalid PDU"
        case 0x05: "Insufficient Authentication"
        case 0x06: "Request Not Supported"
        case 0x07: "Invalid Offset"
        case 0x08: "Insufficient Authorization"
        case 0x09: "Prepare Queue Full"
        case 0x0A: "Attribute Not Found"
        case 0x0B: "Attribute Not Long"
        case 0x0C: "Encryption Key Size Too Short"
        case 0x0D: "Invalid Attribute Value Length"
        case 0x0E: "Unlikely Error"
        case 0x0F: "Insufficient Encryption"
        case 0x10: "Unsupported Group Type"
        case 0x11: "Insufficient Resources"
        case 0x12: "Database Out Of Sync"
        case 0x13: "Value Not Allowed"
        case 0x80...0x9F: "Application Error"
        case 0xFC: "Write Request Rejected"
        case 0xFD: "Client Characteristic Configuration Descriptor Improperly Configured"
        case 0xFE: "Procedure Already in Progress"
        case 0xFF: "Out of Range"
        case 0xE0...0xFB: "Common Profile and Service Error"
        default: "Reserved for future use"
        }
    }

    /// "0x05 Insufficient Authentication".
    public var description: String { HexFormat.prefixed(rawValue, width: 2) + " " + name }
}

extension ATTErrorCode {
    /// What a refusal for security means for the user (Core v5.4 Vol 3 Part C §10.3), or nil for other codes.
    public var securityAdvice: String? {
        switch self {
        case .insufficientAuthentication: "the attribute needs an authenticated (MITM-protected) encrypted link: pair with Passkey Entry, Numeric Comparison or OOB"
        case .insufficientEncryption: "the attribute needs an encrypted link: pair, or encrypt with a stored bond"
        case .encryptionKeySizeTooShort: "the attribute needs a longer encryption key (16 octets): pair again with the full key size"
        default: nil
        }
    }
}
