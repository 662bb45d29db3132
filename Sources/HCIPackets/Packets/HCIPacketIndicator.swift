/// The H4 packet indicator that precedes every packet on a UART-style transport (Core v5.4 Vol 4 Part A §2).
public enum HCIPacketIndicator: UInt8, Sendable, CustomStringConvertible {
    case command = 0x01
    case aclData = 0x02
    case synchronousData = 0x03
    case event = 0x04
    case isoData = 0x05

    public var description: String {
        switch self {
        case .command: "HCI Command"
        case .aclData: "HCI ACL Data"
        case .synchronousData: "HCI Synchronous Data"
        case .event: "HCI Event"
        case .isoData: "HCI ISO Data"
        }
    }
}
