/// A decoded HCI event (Core v5.4 Vol 4 Part E §7.7). Events the host does not model are kept raw.
public enum HCIEvent: Sendable, Hashable {
    /// HCI_Command_Complete (0x0E): Num_HCI_Command_Packets, Command_Opcode, return parameters (Status first).
    case commandComplete(numCommandPackets: UInt8, opcode: HCIOpcode, returnParameters: [UInt8])
    /// HCI_Command_Status (0x0F).
    case commandStatus(status: HCIStatus, numCommandPackets: UInt8, opcode: HCIOpcode)
    /// HCI_Disconnection_Complete (0x05).
    case disconnectionComplete(DisconnectionComplete)
    /// HCI_Number_Of_Completed_Packets (0x13): (handle, count) pairs.
    case numberOfCompletedPackets([CompletedPackets])
    /// HCI_Hardware_Error (0x10): a vendor-specific Hardware_Code.
    case hardwareError(code: UInt8)
    /// HCI_Encryption_Change [v1] (0x08).
    case encryptionChange(status: HCIStatus, handle: UInt16, enabled: UInt8)
    /// HCI_Read_Remote_Version_Information_Complete (0x0C).
    case readRemoteVersionComplete(RemoteVersion)
    /// HCI_Data_Buffer_Overflow (0x1A).
    case dataBufferOverflow(linkType: UInt8)
    /// HCI_Encryption_Key_Refresh_Complete (0x30, §7.7.39): a link already encrypted was encrypted again
    /// (LE: the encryption pause procedure ended, with a new session key).
    case encryptionKeyRefreshComplete(status: HCIStatus, handle: UInt16)
    /// HCI_LE_Meta_Event (0x3E) with a decoded subevent.
    case le(LEMetaEvent)
    /// An event the host does not decode, kept whole.
    case unknown(code: UInt8, parameters: [UInt8])

    /// HCI event codes.
    public enum Code {
        public static let disconnectionComplete: UInt8 = 0x05
        public static let encryptionChange: UInt8 = 0x08
        public static let readRemoteVersionComplete: UInt8 = 0x0C
        public static let commandComplete: UInt8 = 0x0E
        public static let commandStatus: UInt8 = 0x0F
        public static let hardwareError: UInt8 = 0x10
        public static let numberOfCompletedPackets: UInt8 = 0x13
        public static let dataBufferOverflow: UInt8 = 0x1A
        public static let encryptionKeyRefreshComplete: UInt8 = 0x30
        public static let leMeta: UInt8 = 0x3E
    }

    /// Decodes an event packet. Unknown event codes decode to `.unknown`; a known event whose
    /// parameters are too short throws, naming the event and the field.
    public init(decoding packet: HCIEventPacket) throws(HCIDecodingError) {
        let parameters = packet.parameters
        switch packet.code {
        case Code.commandComplete:
            var r = ByteReader(parameters, context: "Command Complete")
            let count = try r.u8("Num_HCI_Command_Packets")
            let opcode = HCIOpcode(rawValue: try r.u16("Command_Opcode"))
            self = .commandComplete(numCommandPackets: count, opcode: opcode, returnParameters: r.rest())
        case Code.commandStatus:
            var r = ByteReader(parameters, context: "Command Status")
            let status = try r.status()
            let count = try r.u8("Num_HCI_Command_Packets")
            self = .commandStatus(status: status, numCommandPackets: count, opcode: HCIOpcode(rawValue: try r.u16("Command_Opcode")))
        case Code.disconnectionComplete:
            var r = ByteReader(parameters, context: "Disconnection Complete")
            self = .disconnectionComplete(DisconnectionComplete(
                status: try r.status(),
                handle: try r.connectionHandle(),
                reason: try r.status("Reason")))
        case Code.numberOfCompletedPackets:
            var r = ByteReader(parameters, context: "Number Of Completed Packets")
            let count = try r.u8("Num_Handles")
            var entries: [CompletedPackets] = []
            for index in 0..<Int(count) {
                entries.append(CompletedPackets(handle: try r.connectionHandle("Connection_Handle[\(index)]"),
                                                count: try r.u16("Num_Completed_Packets[\(index)]")))
            }
            self = .numberOfCompletedPackets(entries)
        case Code.hardwareError:
            var r = ByteReader(parameters, context: "Hardware Error")
            self = .hardwareError(code: try r.u8("Hardware_Code"))
        case Code.encryptionChange:
            var r = ByteReader(parameters, context: "Encryption Change")
            self = .encryptionChange(status: try r.status(),
                                     handle: try r.connectionHandle(),
                                     enabled: try r.u8("Encryption_Enabled"))
        case Code.readRemoteVersionComplete:
            var r = ByteReader(parameters, context: "Read Remote Version Information Complete")
            self = .readRemoteVersionComplete(RemoteVersion(
                status: try r.status(),
                handle: try r.connectionHandle(),
                version: BluetoothVersion(rawValue: try r.u8("Version")),
                manufacturer: CompanyIdentifier(rawValue: try r.u16("Company_Identifier")),
                subversion: try r.u16("Subversion")))
        case Code.dataBufferOverflow:
            var r = ByteReader(parameters, context: "Data Buffer Overflow")
            self = .dataBufferOverflow(linkType: try r.u8("Link_Type"))
        case Code.encryptionKeyRefreshComplete:
            var r = ByteReader(parameters, context: "Encryption Key Refresh Complete")
            self = .encryptionKeyRefreshComplete(status: try r.status(),
                                                 handle: try r.connectionHandle())
        case Code.leMeta:
            self = .le(try LEMetaEvent(decoding: parameters))
        default:
            self = .unknown(code: packet.code, parameters: parameters)
        }
    }
}

/// HCI_Disconnection_Complete parameters.
public struct DisconnectionComplete: Sendable, Hashable {
    public var status: HCIStatus
    public var handle: UInt16
    /// Why the link ended, e.g. 0x08 Connection Timeout, 0x13 Remote User Terminated Connection.
    public var reason: HCIStatus
    public init(status: HCIStatus, handle: UInt16, reason: HCIStatus) {
        self.status = status
        self.handle = handle
        self.reason = reason
    }
}

/// One entry of HCI_Number_Of_Completed_Packets.
public struct CompletedPackets: Sendable, Hashable {
    public var handle: UInt16
    public var count: UInt16
    public init(handle: UInt16, count: UInt16) {
        self.handle = handle
        self.count = count
    }
}

/// HCI_Read_Remote_Version_Information_Complete parameters.
public struct RemoteVersion: Sendable, Hashable {
    public var status: HCIStatus
    public var handle: UInt16
    public var version: BluetoothVersion
    public var manufacturer: CompanyIdentifier
    public var subversion: UInt16
}
