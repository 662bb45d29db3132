import HCIPackets
// Every ATT PDU, as a value.

/// An Attribute Protocol PDU (Core v5.4 Vol 3 Part F §3.3, §3.4).
///
/// `init(decoding:)` accepts the bytes of one PDU as an L2CAP ATT channel
/// delivers them (opcode first) and throws a typed `ATTDecodingError` for any
/// that do not match their opcode's layout; it never traps. `encoded()` gives the
/// bytes back. An opcode this stack does not know decodes as `.unknown`.
public enum ATTPDU: Hashable, Sendable {
    /// §3.4.1.1: the request with `request` opcode failed at `handle` (0x0000 when none applies).
    case errorResponse(request: ATTOpcode, handle: UInt16, error: ATTErrorCode)
    /// §3.4.2.1: the client's receive MTU.
    case exchangeMTURequest(clientRxMTU: UInt16)
    /// §3.4.2.2: the server's receive MTU.
    case exchangeMTUResponse(serverRxMTU: UInt16)
    /// §3.4.3.1: handle/type pairs in a range.
    case findInformationRequest(startHandle: UInt16, endHandle: UInt16)
    /// §3.4.3.2: handle/type pairs, all of one UUID width.
    case findInformationResponse([Information])
    /// §3.4.3.3: attributes of a 16-bit `type` whose value equals `value`.
    case findByTypeValueRequest(startHandle: UInt16, endHandle: UInt16, type: UInt16, value: [UInt8])
    /// §3.4.3.4: the handles found, with their group ends.
    case findByTypeValueResponse([HandlesInformation])
    /// §3.4.4.1: values of attributes of `type` (2- or 16-octet UUID) in a range.
    case readByTypeRequest(startHandle: UInt16, endHandle: UInt16, type: BluetoothUUID)
    /// §3.4.4.2: handle/value pairs, all values of one length.
    case readByTypeResponse([HandleValue])
    /// §3.4.4.3.
    case readRequest(handle: UInt16)
    /// §3.4.4.4: the value (at most ATT_MTU – 1 octets).
    case readResponse(value: [UInt8])
    /// §3.4.4.5: part of a long value from `offset`.
    case readBlobRequest(handle: UInt16, offset: UInt16)
    /// §3.4.4.6.
    case readBlobResponse(value: [UInt8])
    /// §3.4.4.7: two or more handles.
    case readMultipleRequest(handles: [UInt16])
    /// §3.4.4.8: the values concatenated.
    case readMultipleResponse(values: [UInt8])
    /// §3.4.4.9: groups of `type` (2- or 16-octet UUID) in a range.
    case readByGroupTypeRequest(startHandle: UInt16, endHandle: UInt16, type: BluetoothUUID)
    /// §3.4.4.10: handle/end-group/value triples, all values of one length.
    case readByGroupTypeResponse([GroupData])
    /// §3.4.5.1.
    case writeRequest(handle: UInt16, value: [UInt8])
    /// §3.4.5.2.
    case writeResponse
    /// §3.4.5.3: a write with no response.
    case writeCommand(handle: UInt16, value: [UInt8])
    /// §3.4.5.4: a write command with its 12-octet Authentication Signature, kept as received (not verified).
    case signedWriteCommand(handle: UInt16, value: [UInt8], signature: [UInt8])
    /// §3.4.6.1: queue part of a value at `offset`.
    case prepareWriteRequest(handle: UInt16, offset: UInt16, value: [UInt8])
    /// §3.4.6.2: the request's fields echoed.
    case prepareWriteResponse(handle: UInt16, offset: UInt16, value: [UInt8])
    /// §3.4.6.3: write or cancel the queued parts.
    case executeWriteRequest(ExecuteWriteFlag)
    /// §3.4.6.4.
    case executeWriteResponse
    /// §3.4.7.1: at most ATT_MTU – 3 octets of value, unacknowledged.
    case handleValueNotification(handle: UInt16, value: [UInt8])
    /// §3.4.7.2: as a notification, but the client confirms it.
    case handleValueIndication(handle: UInt16, value: [UInt8])
    /// §3.4.7.3.
    case handleValueConfirmation
    /// §3.4.4.11: two or more handles whose values may differ in length.
    case readMultipleVariableRequest(handles: [UInt16])
    /// §3.4.4.12: each value with its length. The last may be cut short by the MTU;
    /// it decodes as the octets present.
    case readMultipleVariableResponse(values: [[UInt8]])
    /// §3.4.7.4: several handle/value pairs with their lengths.
    case multipleHandleValueNotification([HandleValue])
    /// Any other opcode, with the octets after it.
    case unknown(opcode: ATTOpcode, parameters: [UInt8])

    /// The opcode this PDU encodes with.
    public var opcode: ATTOpcode {
        switch self {
        case .errorResponse: .errorResponse
        case .exchangeMTURequest: .exchangeMTURequest
        case .exchangeMTUResponse: .exchangeMTUResponse
        case .findInformationRequest: .findInformationRequest
        case .findInformationResponse: .findInformationResponse
        case .findByTypeValueRequest: .findByTypeValueRequest
        case .findByTypeValueResponse: .findByTypeValueResponse
        case .readByTypeRequest: .readByTypeRequest
        case .readByTypeResponse: .readByTypeResponse
        case .readRequest: .readRequest
        case .readResponse: .readResponse
        case .readBlobRequest: .readBlobRequest
        case .readBlobResponse: .readBlobResponse
        case .readMultipleRequest: .readMultipleRequest
        case .readMultipleResponse: .readMultipleResponse
        case .readByGroupTypeRequest: .readByGroupTypeRequest
        case .readByGroupTypeResponse: .readByGroupTypeResponse
        case .writeRequest: .writeRequest
        case .writeResponse: .writeResponse
        case .writeCommand: .writeCommand
        case .signedWriteCommand: .signedWriteCommand
        case .prepareWriteRequest: .prepareWriteRequest
        case .prepareWriteResponse: .prepareWriteResponse
        case .executeWriteRequest: .executeWriteRequest
        case .executeWriteResponse: .executeWriteResponse
        case .handleValueNotification: .handleValueNotification
        case .handleValueIndication: .handleValueIndication
        case .handleValueConfirmation: .handleValueConfirmation
        case .readMultipleVariableRequest: .readMultipleVariableRequest
        case .readMultipleVariableResponse: .readMultipleVariableResponse
        case .multipleHandleValueNotification: .multipleHandleValueNotification
        case .unknown(let opcode, _): opcode
        }
    }

    /// A request: the client waits for its response (§3.3, §3.4.8).
    public var isRequest: Bool { opcode.isRequest }
    /// A response (Error Response included).
    public var isResponse: Bool { opcode.isResponse }
    /// A command: the Command Flag is set and nothing answers it.
    public var isCommand: Bool { opcode.isCommand }
    /// The opcode that answers this PDU (besides an Error Response), or nil when nothing does.
    public var expectedResponseOpcode: ATTOpcode? { opcode.expectedResponse }

    /// The handle the PDU is about, when it names exactly one (for messages).
    public var handle: UInt16? {
        switch self {
        case .errorResponse(_, let handle, _), .readRequest(let handle), .readBlobRequest(let handle, _),
             .writeRequest(let handle, _), .writeCommand(let handle, _), .signedWriteCommand(let handle, _, _),
             .prepareWriteRequest(let handle, _, _), .prepareWriteResponse(let handle, _, _),
             .handleValueNotification(let handle, _), .handleValueIndication(let handle, _),
             .findInformationRequest(let handle, _), .findByTypeValueRequest(let handle, _, _, _),
             .readByTypeRequest(let handle, _, _), .readByGroupTypeRequest(let handle, _, _):
            handle
        default:
            nil
        }
    }
}

extension ATTPDU: CustomStringConvertible {
    /// The PDU's name and its main fields, e.g. "Read Request handle=0x0003".
    public var description: String {
        let name = opcode.name
        switch self {
        case .errorResponse(let request, let handle, let error):
            return "\(name) to \(request.name) handle=\(HexFormat.prefixed(handle, width: 4)): \(error)"
        case .exchangeMTURequest(let mtu), .exchangeMTUResponse(let mtu):
            return "\(name) mtu=\(mtu)"
        case .findInformationRequest(let start, let end), .readByTypeRequest(let start, let end, _),
             .readByGroupTypeRequest(let start, let end, _), .findByTypeValueRequest(let start, let end, _, _):
            var text = "\(name) \(HexFormat.prefixed(start, width: 4))…\(HexFormat.prefixed(end, width: 4))"
            switch self {
            case .readByTypeRequest(_, _, let type), .readByGroupTypeRequest(_, _, let type): text += " type=\(type)"
            case .findByTypeValueRequest(_, _, let type, let value):
                text += " type=\(HexFormat.digits(type, width: 4)) value=\(HexFormat.bytes(value))"
            default: break
            }
            return text
        case .findInformationResponse(let list): return "\(name) (\(list.count) entries)"
        case .findByTypeValueResponse(let list): return "\(name) (\(list.count) entries)"
        case .readByTypeResponse(let list): return "\(name) (\(list.count) entries)"
        case .readByGroupTypeResponse(let list): return "\(name) (\(list.count) entries)"
        case .multipleHandleValueNotification(let list): return "\(name) (\(list.count) entries)"
        case .readMultipleVariableResponse(let values): return "\(name) (\(values.count) values)"
        case .readMultipleRequest(let handles), .readMultipleVariableRequest(let handles):
            return "\(name) handles=" + handles.map { HexFormat.prefixed($0, width: 4) }.joined(separator: ",")
        case .readResponse(let value), .readBlobResponse(let value), .readMultipleResponse(let value):
            return "\(name) (\(value.count) octets)"
        case .readRequest(let handle):
            return "\(name) handle=\(HexFormat.prefixed(handle, width: 4))"
        case .readBlobRequest(let handle, let offset):
            return "\(name) handle=\(HexFormat.prefixed(handle, width: 4)) offset=\(offset)"
        case .writeRequest(let handle, let value), .writeCommand(let handle, let value),
             .signedWriteCommand(let handle, let value, _),
             .handleValueNotification(let handle, let value), .handleValueIndication(let handle, let value):
            return "\(name) handle=\(HexFormat.prefixed(handle, width: 4)) (\(value.count) octets)"
        case .prepareWriteRequest(let handle, let offset, let value), .prepareWriteResponse(let handle, let offset, let value):
            return "\(name) handle=\(HexFormat.prefixed(handle, width: 4)) offset=\(offset) (\(value.count) octets)"
        case .executeWriteRequest(let flag):
            return "\(name) \(flag == .write ? "write" : "cancel")"
        case .writeResponse, .executeWriteResponse, .handleValueConfirmation:
            return name
        case .unknown(let opcode, let parameters):
            return "\(opcode) (\(parameters.count) octets)"
        }
    }
}
