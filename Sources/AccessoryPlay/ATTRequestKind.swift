import HCIPackets
import GATT

/// Names what a central's ATT request is for, in an app developer's words: discovery, a read or write of a
/// characteristic (by UUID), a subscription.
enum ATTRequestKind {
    static let primaryService = BluetoothUUID(UInt16(0x2800))
    static let includeDeclaration = BluetoothUUID(UInt16(0x2802))
    static let characteristicDeclaration = BluetoothUUID(UInt16(0x2803))
    static let clientConfiguration = BluetoothUUID(UInt16(0x2902))

    /// What a central's request was: its kind and detail, a discovery request's handle range (nil for other
    /// requests, and for a range that runs backwards, which the server answers Invalid Handle), and the
    /// characteristic a read, write or subscription is of (nil where it names none, or several).
    struct Description {
        var kind: CentralEvent.Kind
        var detail: String
        var range: ClosedRange<UInt16>? = nil
        var characteristic: BluetoothUUID? = nil
    }

    /// What the request the server received was; nil for PDUs that are not requests or commands from a client
    /// (a confirmation is not counted).
    static func describe(_ pdu: ATTPDU, in database: GATTDatabase) -> Description? {
        func range(_ start: UInt16, _ end: UInt16) -> ClosedRange<UInt16>? { start <= end ? start...end : nil }
        switch pdu {
        case .readByGroupTypeRequest(let start, let end, let type) where type == primaryService:
            return Description(kind: .discovery, detail: "discover primary services", range: range(start, end))
        case .findByTypeValueRequest(let start, let end, let type, let value) where BluetoothUUID(type) == primaryService:
            return Description(kind: .discovery, detail: "discover primary service \(BluetoothUUID(littleEndian: value).map(\.description) ?? "?")",
                               range: range(start, end))
        case .readByTypeRequest(let start, let end, let type) where type == characteristicDeclaration:
            return Description(kind: .discovery, detail: "discover characteristics", range: range(start, end))
        case .readByTypeRequest(let start, let end, let type) where type == includeDeclaration:
            return Description(kind: .discovery, detail: "discover included services", range: range(start, end))
        case .findInformationRequest(let start, let end):
            return Description(kind: .discovery, detail: "discover descriptors", range: range(start, end))
        default:
            return describeOther(pdu, in: database)
        }
    }

    /// Requests other than discovery (which `describe` names first).
    private static func describeOther(_ pdu: ATTPDU, in database: GATTDatabase) -> Description? {
        func name(_ handle: UInt16) -> String {
            database.type(at: handle).map { "\($0) (handle 0x\(hex(handle)))" } ?? "handle 0x\(hex(handle))"
        }
        switch pdu {
        case .exchangeMTURequest(let mtu):
            return Description(kind: .mtu, detail: "exchange MTU: the central can receive \(mtu)")
        case .readByTypeRequest(_, _, let type):
            return Description(kind: .read, detail: "read by type \(type)", characteristic: type)
        case .readRequest(let handle), .readBlobRequest(let handle, _):
            return Description(kind: .read, detail: "read \(name(handle))", characteristic: database.type(at: handle))
        case .readMultipleRequest(let handles), .readMultipleVariableRequest(let handles):
            return Description(kind: .read, detail: "read \(handles.map(name).joined(separator: ", "))")
        case .writeRequest(let handle, let value), .writeCommand(let handle, let value), .signedWriteCommand(let handle, let value, _):
            if database.type(at: handle) == clientConfiguration {
                let bits = value.first ?? 0
                let configured = characteristic(configuredBy: handle, in: database)
                let name = configured.map(\.description) ?? "handle 0x\(hex(handle))"
                guard bits & 0x03 != 0 else { return Description(kind: .unsubscribe, detail: "unsubscribe from \(name)", characteristic: configured) }
                let what = bits & 0x02 != 0 ? "indications" : "notifications"
                return Description(kind: .subscribe, detail: "subscribe to \(what) of \(name)", characteristic: configured)
            }
            return Description(kind: .write, detail: "write \(value.count) octets to \(name(handle))", characteristic: database.type(at: handle))
        case .prepareWriteRequest(let handle, let offset, let value):
            return Description(kind: .write, detail: "prepare write of \(value.count) octets at \(offset) to \(name(handle))",
                               characteristic: database.type(at: handle))
        case .executeWriteRequest:
            return Description(kind: .write, detail: "execute prepared writes")
        case .handleValueConfirmation:
            return nil
        default:
            return Description(kind: .att, detail: "ATT \(pdu.opcode)")
        }
    }

    /// The characteristic whose CCCD is at `handle`: the type of the nearest value handle below it that it configures.
    static func characteristic(configuredBy handle: UInt16, in database: GATTDatabase) -> BluetoothUUID? {
        var candidate = handle
        while candidate > 1 {
            candidate -= 1
            if database.clientConfigurationHandle(ofValue: candidate) == handle { return database.type(at: candidate) }
        }
        return nil
    }

    static func hex(_ value: UInt16) -> String { String(value, radix: 16, uppercase: true).leftPadded(4) }
}
