import HCI

/// Names what a central's ATT request is for, in an app developer's words: discovery, a read or write of a
/// characteristic (by UUID), a subscription.
enum ATTRequestKind {
    static let primaryService = BluetoothUUID(UInt16(0x2800))
    static let includeDeclaration = BluetoothUUID(UInt16(0x2802))
    static let characteristicDeclaration = BluetoothUUID(UInt16(0x2803))
    static let clientConfiguration = BluetoothUUID(UInt16(0x2902))

    /// The kind and detail of a request the server received, and a discovery request's handle range (nil for
    /// other requests, and for a range that runs backwards, which the server answers Invalid Handle); nil for
    /// PDUs that are not requests or commands from a client (a confirmation is not counted).
    static func describe(_ pdu: ATTPDU, in database: GATTDatabase) -> (CentralEvent.Kind, String, ClosedRange<UInt16>?)? {
        func range(_ start: UInt16, _ end: UInt16) -> ClosedRange<UInt16>? { start <= end ? start...end : nil }
        switch pdu {
        case .readByGroupTypeRequest(let start, let end, let type) where type == primaryService:
            return (.discovery, "discover primary services", range(start, end))
        case .findByTypeValueRequest(let start, let end, let type, let value) where BluetoothUUID(type) == primaryService:
            return (.discovery, "discover primary service \(BluetoothUUID(littleEndian: value).map(\.description) ?? "?")", range(start, end))
        case .readByTypeRequest(let start, let end, let type) where type == characteristicDeclaration:
            return (.discovery, "discover characteristics", range(start, end))
        case .readByTypeRequest(let start, let end, let type) where type == includeDeclaration:
            return (.discovery, "discover included services", range(start, end))
        case .findInformationRequest(let start, let end):
            return (.discovery, "discover descriptors", range(start, end))
        default:
            return describeOther(pdu, in: database).map { ($0.0, $0.1, nil) }
        }
    }

    /// Requests other than discovery (which `describe` names first).
    private static func describeOther(_ pdu: ATTPDU, in database: GATTDatabase) -> (CentralEvent.Kind, String)? {
        func name(_ handle: UInt16) -> String {
            database.type(at: handle).map { "\($0) (handle 0x\(hex(handle)))" } ?? "handle 0x\(hex(handle))"
        }
        switch pdu {
        case .exchangeMTURequest(let mtu):
            return (.mtu, "exchange MTU: the central can receive \(mtu)")
        case .readByTypeRequest(_, _, let type):
            return (.read, "read by type \(type)")
        case .readRequest(let handle), .readBlobRequest(let handle, _):
            return (.read, "read \(name(handle))")
        case .readMultipleRequest(let handles), .readMultipleVariableRequest(let handles):
            return (.read, "read \(handles.map(name).joined(separator: ", "))")
        case .writeRequest(let handle, let value), .writeCommand(let handle, let value), .signedWriteCommand(let handle, let value, _):
            if database.type(at: handle) == clientConfiguration {
                let bits = value.first ?? 0
                let what = bits & 0x02 != 0 ? "indications" : bits & 0x01 != 0 ? "notifications" : "nothing (unsubscribe)"
                return (.subscribe, "subscribe to \(what) of \(characteristic(configuredBy: handle, in: database))")
            }
            return (.write, "write \(value.count) octets to \(name(handle))")
        case .prepareWriteRequest(let handle, let offset, let value):
            return (.write, "prepare write of \(value.count) octets at \(offset) to \(name(handle))")
        case .executeWriteRequest:
            return (.write, "execute prepared writes")
        case .handleValueConfirmation:
            return nil
        default:
            return (.att, "ATT \(pdu.opcode)")
        }
    }

    /// The characteristic whose CCCD is at `handle`: the nearest value handle below it that it configures.
    static func characteristic(configuredBy handle: UInt16, in database: GATTDatabase) -> String {
        var candidate = handle
        while candidate > 1 {
            candidate -= 1
            if database.clientConfigurationHandle(ofValue: candidate) == handle {
                return database.type(at: candidate).map(\.description) ?? "handle 0x\(hex(candidate))"
            }
        }
        return "handle 0x\(hex(handle))"
    }

    static func hex(_ value: UInt16) -> String { String(value, radix: 16, uppercase: true).leftPadded(4) }
}
