/// A command on the LE signaling channel (Core v5.4 Vol 3 Part A §4).
public enum LESignalingCommand: Hashable, Sendable {
    /// L2CAP_COMMAND_REJECT_RSP (0x01).
    case commandReject(identifier: UInt8, reason: UInt16, data: [UInt8])
    /// L2CAP_DISCONNECTION_REQ (0x06, §4.6): the channel's CIDs as the receiver (destination) and the
    /// sender (source) know them.
    case disconnectionRequest(identifier: UInt8, destinationCID: UInt16, sourceCID: UInt16)
    /// L2CAP_DISCONNECTION_RSP (0x07, §4.7): the request's CIDs echoed.
    case disconnectionResponse(identifier: UInt8, destinationCID: UInt16, sourceCID: UInt16)
    /// L2CAP_CONNECTION_PARAMETER_UPDATE_REQ (0x12): intervals in 1.25 ms, timeout in 10 ms.
    case connectionParameterUpdateRequest(identifier: UInt8, intervalMin: UInt16, intervalMax: UInt16, latency: UInt16, timeout: UInt16)
    /// L2CAP_CONNECTION_PARAMETER_UPDATE_RSP (0x13): result 0x0000 accepted, 0x0001 rejected.
    case connectionParameterUpdateResponse(identifier: UInt8, result: UInt16)
    /// L2CAP_LE_CREDIT_BASED_CONNECTION_REQ (0x14).
    case leCreditBasedConnectionRequest(identifier: UInt8, spsm: UInt16, sourceCID: UInt16, mtu: UInt16, mps: UInt16, credits: UInt16)
    /// L2CAP_LE_CREDIT_BASED_CONNECTION_RSP (0x15).
    case leCreditBasedConnectionResponse(identifier: UInt8, destinationCID: UInt16, mtu: UInt16, mps: UInt16, credits: UInt16, result: UInt16)
    /// L2CAP_FLOW_CONTROL_CREDIT_IND (0x16, §4.24): `credits` more K-frames the receiver of `cid` may send.
    case flowControlCreditIndication(identifier: UInt8, cid: UInt16, credits: UInt16)
    /// Any other code, kept raw.
    case other(code: UInt8, identifier: UInt8, data: [UInt8])

    /// Command Reject reasons.
    public enum RejectReason {
        public static let commandNotUnderstood: UInt16 = 0x0000
        /// Invalid CID in request (§4.1): the data holds the request's two CIDs.
        public static let invalidCIDInRequest: UInt16 = 0x0002
    }

    public var identifier: UInt8 {
        switch self {
        case .commandReject(let id, _, _), .disconnectionRequest(let id, _, _), .disconnectionResponse(let id, _, _),
             .flowControlCreditIndication(let id, _, _), .connectionParameterUpdateRequest(let id, _, _, _, _),
             .connectionParameterUpdateResponse(let id, _), .leCreditBasedConnectionRequest(let id, _, _, _, _, _),
             .leCreditBasedConnectionResponse(let id, _, _, _, _, _), .other(_, let id, _):
            id
        }
    }

    public init(decoding payload: [UInt8]) throws(HCIDecodingError) {
        var reader = ByteReader(payload, context: "LE signaling command")
        let code = try reader.u8("Code")
        let identifier = try reader.u8("Identifier")
        let length = try reader.u16("Length")
        let data = try reader.bytes(Int(length), "Data")
        var fields = ByteReader(data, context: "LE signaling command")
        switch code {
        case 0x01:
            self = .commandReject(identifier: identifier, reason: try fields.u16("Reason"), data: fields.rest())
        case 0x06:
            self = .disconnectionRequest(identifier: identifier, destinationCID: try fields.u16("Destination CID"), sourceCID: try fields.u16("Source CID"))
        case 0x07:
            self = .disconnectionResponse(identifier: identifier, destinationCID: try fields.u16("Destination CID"), sourceCID: try fields.u16("Source CID"))
        case 0x16:
            self = .flowControlCreditIndication(identifier: identifier, cid: try fields.u16("CID"), credits: try fields.u16("Credits"))
        case 0x12:
            self = .connectionParameterUpdateRequest(identifier: identifier, intervalMin: try fields.u16("Interval Min"),
                                                     intervalMax: try fields.u16("Interval Max"), latency: try fields.u16("Latency"),
                                                     timeout: try fields.u16("Timeout"))
        case 0x13:
            self = .connectionParameterUpdateResponse(identifier: identifier, result: try fields.u16("Result"))
        case 0x14:
            self = .leCreditBasedConnectionRequest(identifier: identifier, spsm: try fields.u16("SPSM"), sourceCID: try fields.u16("Source CID"),
                                                   mtu: try fields.u16("MTU"), mps: try fields.u16("MPS"), credits: try fields.u16("Initial Credits"))
        case 0x15:
            self = .leCreditBasedConnectionResponse(identifier: identifier, destinationCID: try fields.u16("Destination CID"),
                                                    mtu: try fields.u16("MTU"), mps: try fields.u16("MPS"),
                                                    credits: try fields.u16("Initial Credits"), result: try fields.u16("Result"))
        default:
            self = .other(code: code, identifier: identifier, data: data)
        }
    }

    public var encoded: [UInt8] {
        var data = ByteWriter()
        let code: UInt8
        switch self {
        case .commandReject(_, let reason, let extra):
            code = 0x01; data.u16(reason); data.append(extra)
        case .disconnectionRequest(_, let destination, let source):
            code = 0x06; data.u16(destination); data.u16(source)
        case .disconnectionResponse(_, let destination, let source):
            code = 0x07; data.u16(destination); data.u16(source)
        case .flowControlCreditIndication(_, let cid, let credits):
            code = 0x16; data.u16(cid); data.u16(credits)
        case .connectionParameterUpdateRequest(_, let min, let max, let latency, let timeout):
            code = 0x12; data.u16(min); data.u16(max); data.u16(latency); data.u16(timeout)
        case .connectionParameterUpdateResponse(_, let result):
            code = 0x13; data.u16(result)
        case .leCreditBasedConnectionRequest(_, let spsm, let cid, let mtu, let mps, let credits):
            code = 0x14; data.u16(spsm); data.u16(cid); data.u16(mtu); data.u16(mps); data.u16(credits)
        case .leCreditBasedConnectionResponse(_, let cid, let mtu, let mps, let credits, let result):
            code = 0x15; data.u16(cid); data.u16(mtu); data.u16(mps); data.u16(credits); data.u16(result)
        case .other(let other, _, let extra):
            code = other; data.append(extra)
        }
        var writer = ByteWriter(capacity: data.bytes.count + 4)
        writer.u8(code); writer.u8(identifier); writer.u16(UInt16(data.bytes.count)); writer.append(data.bytes)
        return writer.bytes
    }
}
