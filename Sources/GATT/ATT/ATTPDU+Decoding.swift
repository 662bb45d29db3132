import HCIPackets
// Decoding ATT PDUs from untrusted bytes.

extension ATTPDU {
    /// Decodes one ATT PDU, opcode first, checking it against its layout in
    /// Core v5.4 Vol 3 Part F §3.4.
    ///
    /// Fixed-length PDUs must have exactly their length; lists must hold whole
    /// entries; UUIDs must be 2 or 16 octets; Execute Write flags must be 0x00 or 0x01.
    /// Anything else throws an `ATTDecodingError` naming the PDU and field.
    public init(decoding bytes: some Collection<UInt8>) throws(ATTDecodingError) {
        let pdu = Array(bytes)
        guard let first = pdu.first else {
            throw ATTDecodingError(opcode: nil, field: "Attribute Opcode", reason: .truncated(needed: 1, offset: 0, remaining: 0))
        }
        let opcode = ATTOpcode(first)
        var reader = ATTPDUReader(pdu: pdu, opcode: opcode)
        switch opcode {
        case .errorResponse:
            let request = try reader.u8("Request Opcode In Error")
            let handle = try reader.u16("Attribute Handle In Error")
            let code = try reader.u8("Error Code")
            try reader.end()
            self = .errorResponse(request: ATTOpcode(request), handle: handle, error: ATTErrorCode(code))
        case .exchangeMTURequest:
            let mtu = try reader.u16("Client Rx MTU")
            try reader.end()
            self = .exchangeMTURequest(clientRxMTU: mtu)
        case .exchangeMTUResponse:
            let mtu = try reader.u16("Server Rx MTU")
            try reader.end()
            self = .exchangeMTUResponse(serverRxMTU: mtu)
        case .findInformationRequest:
            let (start, end) = try reader.handleRange()
            try reader.end()
            self = .findInformationRequest(startHandle: start, endHandle: end)
        case .findInformationResponse:
            self = .findInformationResponse(try Self.decodeInformation(&reader))
        case .findByTypeValueRequest:
            let (start, end) = try reader.handleRange()
            let type = try reader.u16("Attribute Type")
            self = .findByTypeValueRequest(startHandle: start, endHandle: end, type: type, value: reader.rest())
        case .findByTypeValueResponse:
            let list = reader.rest()
            guard !list.isEmpty, list.count % 4 == 0 else {
                throw reader.invalid("Handles Information List", "\(list.count) octet(s); needs one or more entries of 4")
            }
            self = .findByTypeValueResponse(stride(from: 0, to: list.count, by: 4).map {
                HandlesInformation(foundHandle: Self.u16(list, $0), groupEndHandle: Self.u16(list, $0 + 2))
            })
        case .readByTypeRequest, .readByGroupTypeRequest:
            let (start, end) = try reader.handleRange()
            let type = try reader.uuidRest(opcode == .readByTypeRequest ? "Attribute Type" : "Attribute Group Type")
            self = opcode == .readByTypeRequest
                ? .readByTypeRequest(startHandle: start, endHandle: end, type: type)
                : .readByGroupTypeRequest(startHandle: start, endHandle: end, type: type)
        case .readByTypeResponse:
            let (list, length) = try Self.decodeDataList(&reader, minimum: 2, holds: "a 2-octet handle")
            self = .readByTypeResponse(stride(from: 0, to: list.count, by: length).map {
                HandleValue(handle: Self.u16(list, $0), value: Array(list[($0 + 2)..<($0 + length)]))
            })
        case .readRequest:
            let handle = try reader.u16("Attribute Handle")
            try reader.end()
            self = .readRequest(handle: handle)
        case .readResponse:
            self = .readResponse(value: reader.rest())
        case .readBlobRequest:
            let handle = try reader.u16("Attribute Handle")
            let offset = try reader.u16("Value Offset")
            try reader.end()
            self = .readBlobRequest(handle: handle, offset: offset)
        case .readBlobResponse:
            self = .readBlobResponse(value: reader.rest())
        case .readMultipleRequest, .readMultipleVariableRequest:
            let handles = try Self.decodeHandles(&reader)
            self = opcode == .readMultipleRequest
                ? .readMultipleRequest(handles: handles) : .readMultipleVariableRequest(handles: handles)
        case .readMultipleResponse:
            self = .readMultipleResponse(values: reader.rest())
        case .readByGroupTypeResponse:
            let (list, length) = try Self.decodeDataList(&reader, minimum: 4, holds: "two 2-octet handles")
            self = .readByGroupTypeResponse(stride(from: 0, to: list.count, by: length).map {
                GroupData(handle: Self.u16(list, $0), endGroupHandle: Self.u16(list, $0 + 2),
                          value: Array(list[($0 + 4)..<($0 + length)]))
            })
        case .writeRequest, .writeCommand, .handleValueNotification, .handleValueIndication:
            let handle = try reader.u16("Attribute Handle")
            let value = reader.rest()
            switch opcode {
            case .writeRequest: self = .writeRequest(handle: handle, value: value)
            case .writeCommand: self = .writeCommand(handle: handle, value: value)
            case .handleValueNotification: self = .handleValueNotification(handle: handle, value: value)
            default: self = .handleValueIndication(handle: handle, value: value)
            }
        case .signedWriteCommand:
            let handle = try reader.u16("Attribute Handle")
            guard reader.remaining >= 12 else {
                throw ATTDecodingError(opcode: opcode, field: "Authentication Signature",
                                       reason: .truncated(needed: 12, offset: 3, remaining: reader.remaining))
            }
            let value = try reader.bytes(reader.remaining - 12, "Attribute Value")
            let signature = reader.rest()
            self = .signedWriteCommand(handle: handle, value: value, signature: signature)
        case .prepareWriteRequest, .prepareWriteResponse:
            let handle = try reader.u16("Attribute Handle")
            let offset = try reader.u16("Value Offset")
            let value = reader.rest()
            self = opcode == .prepareWriteRequest
                ? .prepareWriteRequest(handle: handle, offset: offset, value: value)
                : .prepareWriteResponse(handle: handle, offset: offset, value: value)
        case .executeWriteRequest:
            let raw = try reader.u8("Flags")
            try reader.end()
            guard let flag = ExecuteWriteFlag(rawValue: raw) else {
                throw reader.invalid("Flags", "\(HexFormat.prefixed(raw, width: 2)) is reserved (0x00 cancels, 0x01 writes)")
            }
            self = .executeWriteRequest(flag)
        case .writeResponse, .executeWriteResponse, .handleValueConfirmation:
            try reader.end()
            switch opcode {
            case .writeResponse: self = .writeResponse
            case .executeWriteResponse: self = .executeWriteResponse
            default: self = .handleValueConfirmation
            }
        case .readMultipleVariableResponse:
            var values: [[UInt8]] = []
            // A peer's cut may even split the last Value Length: a lone octet at the end carries no value.
            while reader.remaining > 1 {
                let length = Int(try reader.u16("Value Length"))
                // The list is cut at ATT_MTU – 1 octets (§3.4.4.12), so the last value may be short.
                values.append(try reader.bytes(min(length, reader.remaining), "Attribute Value"))
            }
            self = .readMultipleVariableResponse(values: values)
        case .multipleHandleValueNotification:
            var list: [HandleValue] = []
            repeat {
                let handle = try reader.u16("Attribute Handle")
                let length = Int(try reader.u16("Value Length"))
                list.append(HandleValue(handle: handle, value: try reader.bytes(length, "Attribute Value")))
            } while reader.remaining > 0
            self = .multipleHandleValueNotification(list)
        default:
            self = .unknown(opcode: opcode, parameters: reader.rest())
        }
    }

    private static func decodeInformation(_ reader: inout ATTPDUReader) throws(ATTDecodingError) -> [Information] {
        let format = try reader.u8("Format")
        let uuidLength: Int
        switch format {
        case 0x01: uuidLength = 2
        case 0x02: uuidLength = 16
        default: throw reader.invalid("Format", "\(HexFormat.prefixed(format, width: 2)); 0x01 is 16-bit UUIDs, 0x02 128-bit")
        }
        let entry = 2 + uuidLength
        let list = reader.rest()
        guard !list.isEmpty, list.count % entry == 0 else {
            throw reader.invalid("Information Data", "\(list.count) octet(s) is not one or more entries of \(entry)")
        }
        var result: [Information] = []
        result.reserveCapacity(list.count / entry)
        for start in stride(from: 0, to: list.count, by: entry) {
            guard let uuid = BluetoothUUID(littleEndian: list[(start + 2)..<(start + entry)]) else {
                throw reader.invalid("Information Data", "entry at \(start) has no valid UUID")
            }
            result.append(Information(handle: u16(list, start), type: uuid))
        }
        return result
    }

    /// Length, then an Attribute Data List of one or more entries of Length octets each; an entry
    /// starts with `holds`, `minimum` octets.
    private static func decodeDataList(
        _ reader: inout ATTPDUReader, minimum: Int, holds: String
    ) throws(ATTDecodingError) -> (list: [UInt8], length: Int) {
        let length = Int(try reader.u8("Length"))
        guard length >= minimum else { throw reader.invalid("Length", "\(length); each entry holds \(holds)") }
        let list = reader.rest()
        guard !list.isEmpty, list.count % length == 0 else {
            throw reader.invalid("Attribute Data List", "\(list.count) octet(s) is not one or more entries of Length \(length)")
        }
        return (list, length)
    }

    private static func decodeHandles(_ reader: inout ATTPDUReader) throws(ATTDecodingError) -> [UInt16] {
        let raw = reader.rest()
        guard raw.count >= 4, raw.count % 2 == 0 else {
            throw reader.invalid("Set Of Handles", "\(raw.count) octet(s); needs two or more 2-octet handles")
        }
        return stride(from: 0, to: raw.count, by: 2).map { u16(raw, $0) }
    }

    /// A little-endian UInt16 at `index` of an array already checked to hold it.
    private static func u16(_ bytes: [UInt8], _ index: Int) -> UInt16 {
        UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
    }
}
