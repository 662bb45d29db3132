/// HCI_Read_Local_Version_Information (Core v5.4 Vol 4 Part E §7.4.1).
public struct ReadLocalVersionInformation: HCICommand {
    public static let opcode = HCIOpcode.readLocalVersionInformation
    public init() {}

    public struct Response: Sendable, Hashable {
        public var hciVersion: BluetoothVersion
        public var hciSubversion: UInt16
        public var lmpVersion: BluetoothVersion
        public var manufacturer: CompanyIdentifier
        public var lmpSubversion: UInt16
    }

    public static func decodeResponse(_ r: inout HCIReturnParameters) throws(HCIDecodingError) -> Response {
        Response(hciVersion: BluetoothVersion(rawValue: try r.u8("HCI_Version")),
                 hciSubversion: try r.u16("HCI_Subversion"),
                 lmpVersion: BluetoothVersion(rawValue: try r.u8("LMP_Version")),
                 manufacturer: CompanyIdentifier(rawValue: try r.u16("Company_Identifier")),
                 lmpSubversion: try r.u16("LMP_Subversion"))
    }
}

/// HCI_Read_BD_ADDR (§7.4.6).
public struct ReadBDADDR: HCICommand {
    public static let opcode = HCIOpcode.readBDADDR
    public init() {}
    public static func decodeResponse(_ r: inout HCIReturnParameters) throws(HCIDecodingError) -> BDAddress {
        try r.address("BD_ADDR")
    }
}

/// HCI_Read_Local_Supported_Commands (§7.4.2): a 64-octet bit mask of supported commands.
public struct ReadLocalSupportedCommands: HCICommand {
    public static let opcode = HCIOpcode.readLocalSupportedCommands
    public init() {}
    public static func decodeResponse(_ r: inout HCIReturnParameters) throws(HCIDecodingError) -> [UInt8] {
        try r.bytes(64, "Supported_Commands")
    }
}

/// HCI_Read_Local_Supported_Features (§7.4.3): the LMP features page 0.
public struct ReadLocalSupportedFeatures: HCICommand {
    public static let opcode = HCIOpcode.readLocalSupportedFeatures
    public init() {}
    public static func decodeResponse(_ r: inout HCIReturnParameters) throws(HCIDecodingError) -> UInt64 {
        try r.u64("LMP_Features")
    }
}

/// HCI_Read_Buffer_Size (§7.4.5).
public struct ReadBufferSize: HCICommand {
    public static let opcode = HCIOpcode.readBufferSize
    public init() {}

    public struct Response: Sendable, Hashable {
        public var aclDataPacketLength: UInt16
        public var synchronousDataPacketLength: UInt8
        public var totalNumACLDataPackets: UInt16
        public var totalNumSynchronousDataPackets: UInt16
    }

    public static func decodeResponse(_ r: inout HCIReturnParameters) throws(HCIDecodingError) -> Response {
        Response(aclDataPacketLength: try r.u16("ACL_Data_Packet_Length"),
                 synchronousDataPacketLength: try r.u8("Synchronous_Data_Packet_Length"),
                 totalNumACLDataPackets: try r.u16("Total_Num_ACL_Data_Packets"),
                 totalNumSynchronousDataPackets: try r.u16("Total_Num_Synchronous_Data_Packets"))
    }
}

/// HCI_LE_Read_Buffer_Size [v1] (§7.8.2). A length of 0 means LE shares the BR/EDR ACL buffers.
public struct LEReadBufferSize: HCICommand {
    public static let opcode = HCIOpcode.leReadBufferSize
    public init() {}

    public struct Response: Sendable, Hashable {
        public var leACLDataPacketLength: UInt16
        public var totalNumLEACLDataPackets: UInt8
    }

    public static func decodeResponse(_ r: inout HCIReturnParameters) throws(HCIDecodingError) -> Response {
        Response(leACLDataPacketLength: try r.u16("LE_ACL_Data_Packet_Length"),
                 totalNumLEACLDataPackets: try r.u8("Total_Num_LE_ACL_Data_Packets"))
    }
}

/// HCI_LE_Read_Buffer_Size [v2] (§7.8.2): adds the ISO buffers.
public struct LEReadBufferSizeV2: HCICommand {
    public static let opcode = HCIOpcode.leReadBufferSizeV2
    public init() {}

    public struct Response: Sendable, Hashable {
        public var leACLDataPacketLength: UInt16
        public var totalNumLEACLDataPackets: UInt8
        public var isoDataPacketLength: UInt16
        public var totalNumISODataPackets: UInt8
    }

    public static func decodeResponse(_ r: inout HCIReturnParameters) throws(HCIDecodingError) -> Response {
        Response(leACLDataPacketLength: try r.u16("LE_ACL_Data_Packet_Length"),
                 totalNumLEACLDataPackets: try r.u8("Total_Num_LE_ACL_Data_Packets"),
                 isoDataPacketLength: try r.u16("ISO_Data_Packet_Length"),
                 totalNumISODataPackets: try r.u8("Total_Num_ISO_Data_Packets"))
    }
}

/// HCI_LE_Read_Local_Supported_Features (§7.8.3).
public struct LEReadLocalSupportedFeatures: HCICommand {
    public static let opcode = HCIOpcode.leReadLocalSupportedFeatures
    public init() {}
    public static func decodeResponse(_ r: inout HCIReturnParameters) throws(HCIDecodingError) -> LEFeatures {
        LEFeatures(rawValue: try r.u64("LE_Features"))
    }
}

/// HCI_LE_Read_Maximum_Advertising_Data_Length (§7.8.57).
public struct LEReadMaximumAdvertisingDataLength: HCICommand {
    public static let opcode = HCIOpcode.leReadMaximumAdvertisingDataLength
    public init() {}
    public static func decodeResponse(_ r: inout HCIReturnParameters) throws(HCIDecodingError) -> UInt16 {
        try r.u16("Max_Advertising_Data_Length")
    }
}

/// HCI_LE_Read_Number_of_Supported_Advertising_Sets (§7.8.58).
public struct LEReadNumberOfSupportedAdvertisingSets: HCICommand {
    public static let opcode = HCIOpcode.leReadNumberOfSupportedAdvertisingSets
    public init() {}
    public static func decodeResponse(_ r: inout HCIReturnParameters) throws(HCIDecodingError) -> UInt8 {
        try r.u8("Num_Supported_Advertising_Sets")
    }
}
