import HCIPackets
// ATT PDU opcodes.

/// The opcode octet that starts every ATT PDU (Core v5.4 Vol 3 Part F §3.3, §3.4.8 Table 3.37).
///
/// Bits 0–5 are the method, bit 6 the Command Flag and bit 7 the Authentication
/// Signature Flag (§3.3.1). `init(rawValue:)` never fails: an opcode this stack
/// does not know keeps its number, so it can be answered with
/// Request Not Supported or ignored as the flags say.
public struct ATTOpcode: RawCode, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// §3.4.1.1 ATT_ERROR_RSP.
    public static let errorResponse = ATTOpcode(0x01)
    /// §3.4.2.1 ATT_EXCHANGE_MTU_REQ.
    public static let exchangeMTURequest = ATTOpcode(0x02)
    /// §3.4.2.2 ATT_EXCHANGE_MTU_RSP.
    public static let exchangeMTUResponse = ATTOpcode(0x03)
    /// §3.4.3.1 ATT_FIND_INFORMATION_REQ.
    public static let findInformationRequest = ATTOpcode(0x04)
    /// §3.4.3.2 ATT_FIND_INFORMATION_RSP.
    public static let findInformationResponse = ATTOpcode(0x05)
    /// §3.4.3.3 ATT_FIND_BY_TYPE_VALUE_REQ.
    public static let findByTypeValueRequest = ATTOpcode(0x06)
    /// §3.4.3.4 ATT_FIND_BY_TYPE_VALUE_RSP.
    public static let findByTypeValueResponse = ATTOpcode(0x07)
    /// §3.4.4.1 ATT_READ_BY_TYPE_REQ.
    public static let readByTypeRequest = ATTOpcode(0x08)
    /// §3.4.4.2 ATT_READ_BY_TYPE_RSP.
    public static let readByTypeResponse = ATTOpcode(0x09)
    /// §3.4.4.3 ATT_READ_REQ.
    public static let readRequest = ATTOpcode(0x0A)
    /// §3.4.4.4 ATT_READ_RSP.
    public static let readResponse = ATTOpcode(0x0B)
    /// §3.4.4.5 ATT_READ_BLOB_REQ.
    public static let readBlobRequest = ATTOpcode(0x0C)
    /// §3.4.4.6 ATT_READ_BLOB_RSP.
    public static let readBlobResponse = ATTOpcode(0x0D)
    /// §3.4.4.7 ATT_READ_MULTIPLE_REQ.
    public static let readMultipleRequest = ATTOpcode(0x0E)
    /// §3.4.4.8 ATT_READ_MULTIPLE_RSP.
    public static let readMultipleResponse = ATTOpcode(0x0F)
    /// §3.4.4.9 ATT_READ_BY_GROUP_TYPE_REQ.
    public static let readByGroupTypeRequest = ATTOpcode(0x10)
    /// §3.4.4.10 ATT_READ_BY_GROUP_TYPE_RSP.
    public static let readByGroupTypeResponse = ATTOpcode(0x11)
    /// §3.4.5.1 ATT_WRITE_REQ.
    public static let writeRequest = ATTOpcode(0x12)
    /// §3.4.5.2 ATT_WRITE_RSP.
    public static let writeResponse = ATTOpcode(0x13)
    /// §3.4.6.1 ATT_PREPARE_WRITE_REQ.
    public static let prepareWriteRequest = ATTOpcode(0x16)
    /// §3.4.6.2 ATT_PREPARE_WRITE_RSP.
    public static let prepareWriteResponse = ATTOpcode(0x17)
    /// §3.4.6.3 ATT_EXECUTE_WRITE_REQ.
    public static let executeWriteRequest = ATTOpcode(0x18)
    /// §3.4.6.4 ATT_EXECUTE_WRITE_RSP.
    public static let executeWriteResponse = ATTOpcode(0x19)
    /// §3.4.7.1 ATT_HANDLE_VALUE_NTF.
    public static let handleValueNotification = ATTOpcode(0x1B)
    /// §3.4.7.2 ATT_HANDLE_VALUE_IND.
    public static let handleValueIndication = ATTOpcode(0x1D)
    /// §3.4.7.3 ATT_HANDLE_VALUE_CFM.
    public static let handleValueConfirmation = ATTOpcode(0x1E)
    /// §3.4.4.11 ATT_READ_MULTIPLE_VARIABLE_REQ.
    public static let readMultipleVariableRequest = ATTOpcode(0x20)
    /// §3.4.4.12 ATT_READ_MULTIPLE_VARIABLE_RSP.
    public static let readMultipleVariableResponse = ATTOpcode(0x21)
    /// §3.4.7.4 ATT_MULTIPLE_HANDLE_VALUE_NTF.
    public static let multipleHandleValueNotification = ATTOpcode(0x23)
    /// §3.4.5.3 ATT_WRITE_CMD.
    public static let writeCommand = ATTOpcode(0x52)
    /// §3.4.5.4 ATT_SIGNED_WRITE_CMD.
    public static let signedWriteCommand = ATTOpcode(0xD2)

    /// Bit 6, the Command Flag (§3.3.1): no response follows.
    public var isCommand: Bool { rawValue & 0x40 != 0 }
    /// Bit 7, the Authentication Signature Flag (§3.3.1): 12 octets of signature end the PDU.
    public var hasAuthenticationSignature: Bool { rawValue & 0x80 != 0 }

    /// Whether a client sends this as a request that expects a response (§3.4.8).
    public var isRequest: Bool { Self.requests.contains(rawValue) }
    /// Whether a server sends this in answer to a request (Error Response included).
    public var isResponse: Bool { Self.responses.contains(rawValue) }

    /// The response opcode that completes a request (the request's opcode + 1),
    /// or Handle Value Confirmation for an indication; nil for anything else.
    /// An Error Response may come instead of any of them.
    public var expectedResponse: ATTOpcode? {
        if isRequest { return ATTOpcode(rawValue + 1) }
        if self == .handleValueIndication { return .handleValueConfirmation }
        return nil
    }

    /// Whether this PDU travels to the ATT server of a bearer (requests, commands,
    /// confirmations, and any unknown opcode, which only a server can answer with
    /// Request Not Supported) rather than to its client (responses, notifications, indications).
    public var isServerBound: Bool {
        if isResponse { return false }
        switch self {
        case .handleValueNotification, .handleValueIndication, .multipleHandleValueNotification: return false
        default: return true
        }
    }

    /// The name the specification gives the PDU, e.g. "Read By Type Request";
    /// "Unknown ATT opcode" for the rest.
    public var name: String {
        switch rawValue {
        case 0x01: "Error Response"
        case 0x02: "Exchange MTU Request"
        case 0x03: "Exchange MTU Response"
        case 0x04: "Find Information Request"
        case 0x05: "Find Information Response"
        case 0x06: "Find By Type Value Request"
        case 0x07: "Find By Type Value Response"
        case 0x08: "Read By Type Request"
        case 0x09: "Read By Type Response"
        case 0x0A: "Read Request"
        case 0x0B: "Read Response"
        case 0x0C: "Read Blob Request"
        case 0x0D: "Read Blob Response"
        case 0x0E: "Read Multiple Request"
        case 0x0F: "Read Multiple Response"
        case 0x10: "Read By Group Type Request"
        case 0x11: "Read By Group Type Response"
        case 0x12: "Write Request"
        case 0x13: "Write Response"
        case 0x16: "Prepare Write Request"
        case 0x17: "Prepare Write Response"
        case 0x18: "Execute Write Request"
        case 0x19: "Execute Write Response"
        case 0x1B: "Handle Value Notification"
        case 0x1D: "Handle Value Indication"
        case 0x1E: "Handle Value Confirmation"
        case 0x20: "Read Multiple Variable Request"
        case 0x21: "Read Multiple Variable Response"
        case 0x23: "Multiple Handle Value Notification"
        case 0x52: "Write Command"
        case 0xD2: "Signed Write Command"
        default: "Unknown ATT opcode"
        }
    }

    /// "Read Request (0x0A)".
    public var description: String { "\(name) (\(HexFormat.prefixed(rawValue, width: 2)))" }

    private static let requests: Set<UInt8> = [0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x12, 0x16, 0x18, 0x20]
    private static let responses: Set<UInt8> = [0x01, 0x03, 0x05, 0x07, 0x09, 0x0B, 0x0D, 0x0F, 0x11, 0x13, 0x17, 0x19, 0x21]
}
