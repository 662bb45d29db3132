import HCIPackets
// Encoding ATT PDUs to bytes.

extension ATTPDU {
    /// The PDU's bytes, opcode first, laid out as Core v5.4 Vol 3 Part F §3.4 says.
    ///
    /// Lists whose layout has one Length or Format for all entries take it from
    /// the first entry; keep entries alike (the server does). UUIDs go out in
    /// their 16-bit form when they were made 16-bit, otherwise as 128 bits.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 8)
        writer.u8(opcode.rawValue)
        switch self {
        case .errorResponse(let request, let handle, let error):
            writer.u8(request.rawValue)
            writer.u16(handle)
            writer.u8(error.rawValue)
        case .exchangeMTURequest(let mtu), .exchangeMTUResponse(let mtu):
            writer.u16(mtu)
        case .findInformationRequest(let start, let end):
            writer.u16(start)
            writer.u16(end)
        case .findInformationResponse(let list):
            let sixteen = list.first?.type.width == .bits16
            writer.u8(sixteen ? 0x01 : 0x02)
            for entry in list {
                writer.u16(entry.handle)
                if sixteen, let short = entry.type.uint16Value {
                    writer.u16(short)
                } else {
                    writer.append(entry.type.uuid128.reversed())
                }
            }
        case .findByTypeValueRequest(let start, let end, let type, let value):
            writer.u16(start)
            writer.u16(end)
            writer.u16(type)
            writer.append(value)
        case .findByTypeValueResponse(let list):
            for entry in list {
                writer.u16(entry.foundHandle)
                writer.u16(entry.groupEndHandle)
            }
        case .readByTypeRequest(let start, let end, let type), .readByGroupTypeRequest(let start, let end, let type):
            writer.u16(start)
            writer.u16(end)
            writer.append(type.attBytes)
        case .readByTypeResponse(let list):
            writer.u8(UInt8(truncatingIfNeeded: 2 + (list.first?.value.count ?? 0)))
            for entry in list {
                writer.u16(entry.handle)
                writer.append(entry.value)
            }
        case .readRequest(let handle):
            writer.u16(handle)
        case .readResponse(let value), .readBlobResponse(let value), .readMultipleResponse(let value):
            writer.append(value)
        case .readBlobRequest(let handle, let offset):
            writer.u16(handle)
            writer.u16(offset)
        case .readMultipleRequest(let handles), .readMultipleVariableRequest(let handles):
            for handle in handles { writer.u16(handle) }
        case .readByGroupTypeResponse(let list):
            writer.u8(UInt8(truncatingIfNeeded: 4 + (list.first?.value.count ?? 0)))
            for entry in list {
                writer.u16(entry.handle)
                writer.u16(entry.endGroupHandle)
                writer.append(entry.value)
            }
        case .writeRequest(let handle, let value), .writeCommand(let handle, let value),
             .handleValueNotification(let handle, let value), .handleValueIndication(let handle, let value):
            writer.u16(handle)
            writer.append(value)
        case .signedWriteCommand(let handle, let value, let signature):
            writer.u16(handle)
            writer.append(value)
            writer.append(signature)
        case .prepareWriteRequest(let handle, let offset, let value), .prepareWriteResponse(let handle, let offset, let value):
            writer.u16(handle)
            writer.u16(offset)
            writer.append(value)
        case .executeWriteRequest(let flag):
            writer.u8(flag.rawValue)
        case .writeResponse, .executeWriteResponse, .handleValueConfirmation:
            break
        case .readMultipleVariableResponse(let values):
            for value in values {
                writer.u16(UInt16(truncatingIfNeeded: value.count))
                writer.append(value)
            }
        case .multipleHandleValueNotification(let list):
            for entry in list {
                writer.u16(entry.handle)
                writer.u16(UInt16(truncatingIfNeeded: entry.value.count))
                writer.append(entry.value)
            }
        case .unknown(_, let parameters):
            writer.append(parameters)
        }
        return writer.bytes
    }
}
