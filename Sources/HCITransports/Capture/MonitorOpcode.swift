import HCIPackets
/// The opcodes of the Linux Bluetooth monitor channel (BlueZ `monitor/` and `doc/btsnoop.rst`), which
/// btsnoop datalink 2001 records carry in the low 16 bits of their flags (the controller index in the high 16).
public enum MonitorOpcode: UInt16, Sendable, Hashable {
    /// A controller appeared: type, bus, BD_ADDR and an 8-octet name.
    case newIndex = 0
    /// A controller went away.
    case deleteIndex = 1
    case commandPacket = 2
    case eventPacket = 3
    case aclTransmitted = 4
    case aclReceived = 5
    case synchronousTransmitted = 6
    case synchronousReceived = 7
    /// A host opened the controller.
    case openIndex = 8
    /// The host closed it.
    case closeIndex = 9
    /// A text note for whoever reads the capture (btmon prints it as `= Note:`; Wireshark `hci_mon.system_note`).
    case systemNote = 12
    case isoTransmitted = 18
    case isoReceived = 19

    /// The opcode of an HCI packet travelling host to controller (`received` false) or back.
    public init(_ packet: HCIPacket, received: Bool) {
        switch packet.indicator {
        case .command: self = .commandPacket
        case .event: self = .eventPacket
        case .aclData: self = received ? .aclReceived : .aclTransmitted
        case .synchronousData: self = received ? .synchronousReceived : .synchronousTransmitted
        case .isoData: self = received ? .isoReceived : .isoTransmitted
        }
    }

    /// The packet a record with this opcode carries — its H4 indicator and whether it travelled controller
    /// to host — or nil for a record about the controller itself (index, note).
    public var packet: (indicator: HCIPacketIndicator, received: Bool)? {
        switch self {
        case .commandPacket: (.command, false)
        case .eventPacket: (.event, true)
        case .aclTransmitted: (.aclData, false)
        case .aclReceived: (.aclData, true)
        case .synchronousTransmitted: (.synchronousData, false)
        case .synchronousReceived: (.synchronousData, true)
        case .isoTransmitted: (.isoData, false)
        case .isoReceived: (.isoData, true)
        case .newIndex, .deleteIndex, .openIndex, .closeIndex, .systemNote: nil
        }
    }

    /// The index a record about no controller in particular (a system note) carries: HCI_DEV_NONE.
    public static let noController: UInt16 = 0xFFFF
}
