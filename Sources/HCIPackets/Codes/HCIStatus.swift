// HCI status / Controller error codes.

/// A Controller error code: the one-octet status that HCI commands and events
/// carry (`Status`, `Reason`), and that LMP and the LE Link Layer use for
/// rejections and disconnections.
///
/// The Core specification calls these "Controller Error Codes" and lists them
/// in Core v5.4 Vol 1 Part F §1.3 ("List of error codes"); §2 describes each.
/// Names here are the v5.4 names. Codes that v5.4 does not assign are kept
/// as they are (`init(rawValue:)` never fails), so a log can still show the
/// number a controller sent.
public struct HCIStatus: RawCode, Hashable, Sendable, CustomStringConvertible, Codable {
    /// The error code octet.
    public let rawValue: UInt8

    /// Wraps any octet; unknown or reserved codes are kept.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Whether this is `Success` (0x00).
    public var isSuccess: Bool { rawValue == 0x00 }

    /// Whether the code is assigned in Vol 1 Part F §1.3 (or, for 0x46 and 0x47,
    /// in Core v6.0). Reserved codes (0x2B, 0x31, 0x33) and codes above the
    /// table are not.
    public var isAssigned: Bool { Self.specName(rawValue) != nil }

    /// The name the specification gives this code, e.g. "Connection Timeout";
    /// "Reserved for future use" for 0x2B, 0x31 and 0x33, and
    /// "Unknown status code" for codes the table does not list.
    public var name: String {
        if let name = Self.specName(rawValue) { return name }
        switch rawValue {
        case 0x2B, 0x31, 0x33: return "Reserved for future use"
        default: return "Unknown status code"
        }
    }

    /// Two uppercase hex digits and the name: "0x08 Connection Timeout".
    public var description: String {
        HexFormat.prefixed(rawValue, width: 2) + " " + name
    }

    /// Every assigned code, in numeric order (0x00 … 0x47).
    public static let allAssigned: [HCIStatus] = (UInt8(0x00)...UInt8(0xFF))
        .map(HCIStatus.init(rawValue:))
        .filter(\.isAssigned)

    // MARK: - Names (Core v5.4 Vol 1 Part F §1.3, Table 1.1)

    private static func specName(_ code: UInt8) -> String? {
        switch code {
        case 0x00: "Success"
        case 0x01: "Unknown HCI Command"
        case 0x02: "Unknown Connection Identifier"
        case 0x03: "Hardware Failure"
        case 0x04: "Page Timeout"
        case 0x05: "Authentication Failure"
        case 0x06: "PIN or Key Missing"
        case 0x07: "Memory Capacity Exceeded"
        case 0x08: "Connection Timeout"
        case 0x09: "Connection Limit Exceeded"
        case 0x0A: "Synchronous Connection Limit To A Device Exceeded"
        case 0x0B: "Connection Already Exists"
        case 0x0C: "Command Disallowed"
        case 0x0D: "Connection Rejected due to Limited Resources"
        case 0x0E: "Connection Rejected Due To Security Reasons"
        case 0x0F: "Connection Rejected due to Unacceptable BD_ADDR"
        case 0x10: "Connection Accept Timeout Exceeded"
        case 0x11: "Unsupported Feature or Parameter Value"
        case 0x12: "Invalid HCI Command Parameters"
        case 0x13: "Remote User Terminated Connection"
        case 0x14: "Remote Device Terminated Connection due to Low Resources"
        case 0x15: "Remote Device Terminated Connection due to Power Off"
        case 0x16: "Connection Terminated By Local Host"
        case 0x17: "Repeated Attempts"
        case 0x18: "Pairing Not Allowed"
        case 0x19: "Unknown LMP PDU"
        case 0x1A: "Unsupported Remote Feature"
        case 0x1B: "SCO Offset Rejected"
        case 0x1C: "SCO Interval Rejected"
        case 0x1D: "SCO Air Mode Rejected"
        case 0x1E: "Invalid LMP Parameters / Invalid LL Parameters"
        case 0x1F: "Unspecified Error"
        case 0x20: "Unsupported LMP Parameter Value / Unsupported LL Parameter Value"
        case 0x21: "Role Change Not Allowed"
        case 0x22: "LMP Response Timeout / LL Response Timeout"
        case 0x23: "LMP Error Transaction Collision / LL Procedure Collision"
        case 0x24: "LMP PDU Not Allowed"
        case 0x25: "Encryption Mode Not Acceptable"
        case 0x26: "Link Key cannot be Changed"
        case 0x27: "Requested QoS Not Supported"
        case 0x28: "Instant Passed"
        case 0x29: "Pairing With Unit Key Not Supported"
        case 0x2A: "Different Transaction Collision"
        case 0x2C: "QoS Unacceptable Parameter"
        case 0x2D: "QoS Rejected"
        case 0x2E: "Channel Classification Not Supported"
        case 0x2F: "Insufficient Security"
        case 0x30: "Parameter Out Of Mandatory Range"
        case 0x32: "Role Switch Pending"
        case 0x34: "Reserved Slot Violation"
        case 0x35: "Role Switch Failed"
        case 0x36: "Extended Inquiry Response Too Large"
        case 0x37: "Secure Simple Pairing Not Supported By Host"
        case 0x38: "Host Busy - Pairing"
        case 0x39: "Connection Rejected due to No Suitable Channel Found"
        case 0x3A: "Controller Busy"
        case 0x3B: "Unacceptable Connection Parameters"
        case 0x3C: "Advertising Timeout"
        case 0x3D: "Connection Terminated due to MIC Failure"
        case 0x3E: "Connection Failed to be Established / Synchronization Timeout"
        case 0x3F: "Previously used (MAC Connection Failed)"
        case 0x40: "Coarse Clock Adjustment Rejected but Will Try to Adjust Using Clock Dragging"
        case 0x41: "Type0 Submap Not Defined"
        case 0x42: "Unknown Advertising Identifier"
        case 0x43: "Limit Reached"
        case 0x44: "Operation Cancelled by Host"
        case 0x45: "Packet Too Long"
        case 0x46: "Too Late"
        case 0x47: "Too Early"
        default: nil
        }
    }
}

// MARK: - Constants

extension HCIStatus {
    /// Success (0x00).
    public static let success = HCIStatus(rawValue: 0x00)
    /// Unknown HCI Command (0x01): the Controller does not understand the opcode.
    public static let unknownHCICommand = HCIStatus(rawValue: 0x01)
    /// Unknown Connection Identifier (0x02): no such connection handle.
    public static let unknownConnectionIdentifier = HCIStatus(rawValue: 0x02)
    /// Hardware Failure (0x03).
    public static let hardwareFailure = HCIStatus(rawValue: 0x03)
    /// Page Timeout (0x04).
    public static let pageTimeout = HCIStatus(rawValue: 0x04)
    /// Authentication Failure (0x05).
    public static let authenticationFailure = HCIStatus(rawValue: 0x05)
    /// PIN or Key Missing (0x06).
    public static let pinOrKeyMissing = HCIStatus(rawValue: 0x06)
    /// Memory Capacity Exceeded (0x07).
    public static let memoryCapacityExceeded = HCIStatus(rawValue: 0x07)
    /// Connection Timeout (0x08): the link supervision timeout (or a sync timeout) expired.
    public static let connectionTimeout = HCIStatus(rawValue: 0x08)
    /// Connection Limit Exceeded (0x09).
    public static let connectionLimitExceeded = HCIStatus(rawValue: 0x09)
    /// Synchronous Connection Limit To A Device Exceeded (0x0A).
    public static let synchronousConnectionLimitToADeviceExceeded = HCIStatus(rawValue: 0x0A)
    /// Connection Already Exists (0x0B).
    public static let connectionAlreadyExists = HCIStatus(rawValue: 0x0B)
    /// Command Disallowed (0x0C): the Controller cannot run the command in its current state.
    public static let commandDisallowed = HCIStatus(rawValue: 0x0C)
    /// Connection Rejected due to Limited Resources (0x0D).
    public static let connectionRejectedDueToLimitedResources = HCIStatus(rawValue: 0x0D)
    /// Connection Rejected Due To Security Reasons (0x0E).
    public static let connectionRejectedDueToSecurityReasons = HCIStatus(rawValue: 0x0E)
    /// Connection Rejected due to Unacceptable BD_ADDR (0x0F).
    public static let connectionRejectedDueToUnacceptableBDADDR = HCIStatus(rawValue: 0x0F)
    /// Connection Accept Timeout Exceeded (0x10).
    public static let connectionAcceptTimeoutExceeded = HCIStatus(rawValue: 0x10)
    /// Unsupported Feature or Parameter Value (0x11).
    public static let unsupportedFeatureOrParameterValue = HCIStatus(rawValue: 0x11)
    /// Invalid HCI Command Parameters (0x12).
    public static let invalidHCICommandParameters = HCIStatus(rawValue: 0x12)
    /// Remote User Terminated Connection (0x13).
    public static let remoteUserTerminatedConnection = HCIStatus(rawValue: 0x13)
    /// Remote Device Terminated Connection due to Low Resources (0x14).
    public static let remoteDeviceTerminatedConnectionDueToLowResources = HCIStatus(rawValue: 0x14)
    /// Remote Device Terminated Connection due to Power Off (0x15).
    public static let remoteDeviceTerminatedConnectionDueToPowerOff = HCIStatus(rawValue: 0x15)
    /// Connection Terminated By Local Host (0x16).
    public static let connectionTerminatedByLocalHost = HCIStatus(rawValue: 0x16)
    /// Repeated Attempts (0x17).
    public static let repeatedAttempts = HCIStatus(rawValue: 0x17)
    /// Pairing Not Allowed (0x18).
    public static let pairingNotAllowed = HCIStatus(rawValue: 0x18)
    /// Unknown LMP PDU (0x19).
    public static let unknownLMPPDU = HCIStatus(rawValue: 0x19)
    /// Unsupported Remote Feature (0x1A); "/ Unsupported LMP Feature" before v5.3.
    public static let unsupportedRemoteFeature = HCIStatus(rawValue: 0x1A)
    /// SCO Offset Rejected (0x1B).
    public static let scoOffsetRejected = HCIStatus(rawValue: 0x1B)
    /// SCO Interval Rejected (0x1C).
    public static let scoIntervalRejected = HCIStatus(rawValue: 0x1C)
    /// SCO Air Mode Rejected (0x1D).
    public static let scoAirModeRejected = HCIStatus(rawValue: 0x1D)
    /// Invalid LMP Parameters / Invalid LL Parameters (0x1E).
    public static let invalidLMPParameters = HCIStatus(rawValue: 0x1E)
    /// Invalid LL Parameters (0x1E); the same code as `invalidLMPParameters`.
    public static let invalidLLParameters = HCIStatus(rawValue: 0x1E)
    /// Unspecified Error (0x1F).
    public static let unspecifiedError = HCIStatus(rawValue: 0x1F)
    /// Unsupported LMP Parameter Value / Unsupported LL Parameter Value (0x20).
    public static let unsupportedLMPParameterValue = HCIStatus(rawValue: 0x20)
    /// Unsupported LL Parameter Value (0x20); the same code as `unsupportedLMPParameterValue`.
    public static let unsupportedLLParameterValue = HCIStatus(rawValue: 0x20)
    /// Role Change Not Allowed (0x21).
    public static let roleChangeNotAllowed = HCIStatus(rawValue: 0x21)
    /// LMP Response Timeout / LL Response Timeout (0x22).
    public static let lmpResponseTimeout = HCIStatus(rawValue: 0x22)
    /// LL Response Timeout (0x22); the same code as `lmpResponseTimeout`.
    public static let llResponseTimeout = HCIStatus(rawValue: 0x22)
    /// LMP Error Transaction Collision / LL Procedure Collision (0x23).
    public static let lmpErrorTransactionCollision = HCIStatus(rawValue: 0x23)
    /// LL Procedure Collision (0x23); the same code as `lmpErrorTransactionCollision`.
    public static let llProcedureCollision = HCIStatus(rawValue: 0x23)
    /// LMP PDU Not Allowed (0x24).
    public static let lmpPDUNotAllowed = HCIStatus(rawValue: 0x24)
    /// Encryption Mode Not Acceptable (0x25).
    public static let encryptionModeNotAcceptable = HCIStatus(rawValue: 0x25)
    /// Link Key cannot be Changed (0x26).
    public static let linkKeyCannotBeChanged = HCIStatus(rawValue: 0x26)
    /// Requested QoS Not Supported (0x27).
    public static let requestedQoSNotSupported = HCIStatus(rawValue: 0x27)
    /// Instant Passed (0x28).
    public static let instantPassed = HCIStatus(rawValue: 0x28)
    /// Pairing With Unit Key Not Supported (0x29).
    public static let pairingWithUnitKeyNotSupported = HCIStatus(rawValue: 0x29)
    /// Different Transaction Collision (0x2A).
    public static let differentTransactionCollision = HCIStatus(rawValue: 0x2A)
    /// QoS Unacceptable Parameter (0x2C).
    public static let qosUnacceptableParameter = HCIStatus(rawValue: 0x2C)
    /// QoS Rejected (0x2D).
    public static let qosRejected = HCIStatus(rawValue: 0x2D)
    /// Channel Classification Not Supported (0x2E).
    public static let channelClassificationNotSupported = HCIStatus(rawValue: 0x2E)
    /// Insufficient Security (0x2F).
    public static let insufficientSecurity = HCIStatus(rawValue: 0x2F)
    /// Parameter Out Of Mandatory Range (0x30).
    public static let parameterOutOfMandatoryRange = HCIStatus(rawValue: 0x30)
    /// Role Switch Pending (0x32).
    public static let roleSwitchPending = HCIStatus(rawValue: 0x32)
    /// Reserved Slot Violation (0x34).
    public static let reservedSlotViolation = HCIStatus(rawValue: 0x34)
    /// Role Switch Failed (0x35).
    public static let roleSwitchFailed = HCIStatus(rawValue: 0x35)
    /// Extended Inquiry Response Too Large (0x36).
    public static let extendedInquiryResponseTooLarge = HCIStatus(rawValue: 0x36)
    /// Secure Simple Pairing Not Supported By Host (0x37).
    public static let secureSimplePairingNotSupportedByHost = HCIStatus(rawValue: 0x37)
    /// Host Busy - Pairing (0x38).
    public static let hostBusyPairing = HCIStatus(rawValue: 0x38)
    /// Connection Rejected due to No Suitable Channel Found (0x39).
    public static let connectionRejectedDueToNoSuitableChannelFound = HCIStatus(rawValue: 0x39)
    /// Controller Busy (0x3A).
    public static let controllerBusy = HCIStatus(rawValue: 0x3A)
    /// Unacceptable Connection Parameters (0x3B).
    public static let unacceptableConnectionParameters = HCIStatus(rawValue: 0x3B)
    /// Advertising Timeout (0x3C); "Directed Advertising Timeout" before v5.0.
    public static let advertisingTimeout = HCIStatus(rawValue: 0x3C)
    /// Connection Terminated due to MIC Failure (0x3D).
    public static let connectionTerminatedDueToMICFailure = HCIStatus(rawValue: 0x3D)
    /// Connection Failed to be Established / Synchronization Timeout (0x3E).
    public static let connectionFailedToBeEstablished = HCIStatus(rawValue: 0x3E)
    /// Synchronization Timeout (0x3E); the same code as `connectionFailedToBeEstablished`.
    public static let synchronizationTimeout = HCIStatus(rawValue: 0x3E)
    /// 0x3F, "Previously used" in v5.4: it was MAC Connection Failed (AMP, removed in v5.3).
    public static let macConnectionFailed = HCIStatus(rawValue: 0x3F)
    /// Coarse Clock Adjustment Rejected but Will Try to Adjust Using Clock Dragging (0x40).
    public static let coarseClockAdjustmentRejected = HCIStatus(rawValue: 0x40)
    /// Type0 Submap Not Defined (0x41).
    public static let type0SubmapNotDefined = HCIStatus(rawValue: 0x41)
    /// Unknown Advertising Identifier (0x42): no such advertising set or sync handle.
    public static let unknownAdvertisingIdentifier = HCIStatus(rawValue: 0x42)
    /// Limit Reached (0x43).
    public static let limitReached = HCIStatus(rawValue: 0x43)
    /// Operation Cancelled by Host (0x44).
    public static let operationCancelledByHost = HCIStatus(rawValue: 0x44)
    /// Packet Too Long (0x45).
    public static let packetTooLong = HCIStatus(rawValue: 0x45)
    /// Too Late (0x46); added in Core v6.0, after the v5.4 table.
    public static let tooLate = HCIStatus(rawValue: 0x46)
    /// Too Early (0x47); added in Core v6.0, after the v5.4 table.
    public static let tooEarly = HCIStatus(rawValue: 0x47)
}
