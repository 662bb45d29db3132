// The LE data length commands (Core v5.4 Vol 4 Part E §7.8.33, §7.8.34, §7.8.35 and §7.8.46): how many
// payload octets (27…251) and how many microseconds (328…17040) one link-layer data PDU may carry.

/// A link-layer data length: octets and air time of the longest data PDU payload one direction carries
/// (Core v5.4 Vol 6 Part B §4.5.10: connMaxTxOctets and connMaxTxTime).
public struct DataLength: Sendable, Hashable, CustomStringConvertible {
    public var octets: UInt16
    public var time: UInt16

    public init(octets: UInt16, time: UInt16) {
        self.octets = octets
        self.time = time
    }

    /// The length every link starts with (Vol 6 Part B §4.5.10): 27 octets, 328 µs.
    public static let initial = DataLength(octets: 27, time: 328)

    /// The longest a controller may support: 251 octets, 17,040 µs (LE Coded, S=8).
    public static let maximum = DataLength(octets: 251, time: 17040)

    /// The air time of a PDU of `octets` payload octets on the slowest PHY, LE Coded S=8 with a MIC (Core v5.4
    /// Vol 6 Part B §2.2, §4.5.10): 376 µs FEC block 1 + (2 header + octets + 4 MIC + 3 CRC) × 64 µs + 24 µs
    /// TERM2. What a host asks for so that `octets` fit on any PHY: 2704 µs for 27 octets, 17040 µs for 251.
    public static func time(carrying octets: UInt16) -> UInt16 {
        UInt16(clamping: 400 + (Int(octets) + 9) * 64)
    }

    /// Whether both values are within HCI's ranges (octets 0x001B…0x00FB, time 0x0148…0x4290).
    public var isValidForHCI: Bool { (27...251).contains(octets) && (328...17040).contains(time) }

    public var description: String { "\(octets) octets / \(time) µs" }
}

/// HCI_LE_Set_Data_Length (§7.8.33): the largest data PDU this controller should send on a link; the
/// controller starts the Data Length Update procedure and reports the result with LE Data Length Change
/// (only when a value changed).
public struct LESetDataLength: HCICommand {
    public static let opcode = HCIOpcode.leSetDataLength
    public var handle: UInt16
    public var length: DataLength

    public init(handle: UInt16, length: DataLength) {
        self.handle = handle
        self.length = length
    }

    public var parameters: [UInt8] {
        var w = ByteWriter(capacity: 6)
        w.u16(handle); w.u16(length.octets); w.u16(length.time)
        return w.bytes
    }

    public static func decodeResponse(_ r: inout HCIReturnParameters) throws(HCIDecodingError) -> UInt16 {
        try r.connectionHandle()
    }
}

/// HCI_LE_Read_Suggested_Default_Data_Length (§7.8.34): the data length the controller uses for new links.
public struct LEReadSuggestedDefaultDataLength: HCICommand {
    public static let opcode = HCIOpcode.leReadSuggestedDefaultDataLength
    public init() {}

    public static func decodeResponse(_ r: inout HCIReturnParameters) throws(HCIDecodingError) -> DataLength {
        DataLength(octets: try r.u16("Suggested_Max_TX_Octets"), time: try r.u16("Suggested_Max_TX_Time"))
    }
}

/// HCI_LE_Write_Suggested_Default_Data_Length (§7.8.35): the data length the controller proposes on every
/// new link (it starts the Data Length Update procedure itself when this exceeds the initial length).
public struct LEWriteSuggestedDefaultDataLength: HCICommand {
    public static let opcode = HCIOpcode.leWriteSuggestedDefaultDataLength
    public var length: DataLength

    public init(length: DataLength) { self.length = length }

    public var parameters: [UInt8] {
        var w = ByteWriter(capacity: 4)
        w.u16(length.octets); w.u16(length.time)
        return w.bytes
    }
}

/// HCI_LE_Read_Maximum_Data_Length (§7.8.46): the longest data PDU the controller supports, each way.
public struct LEReadMaximumDataLength: HCICommand {
    public static let opcode = HCIOpcode.leReadMaximumDataLength
    public init() {}

    public struct Response: Sendable, Hashable {
        public var transmit: DataLength
        public var receive: DataLength
    }

    public static func decodeResponse(_ r: inout HCIReturnParameters) throws(HCIDecodingError) -> Response {
        let transmit = DataLength(octets: try r.u16("Supported_Max_TX_Octets"), time: try r.u16("Supported_Max_TX_Time"))
        let receive = DataLength(octets: try r.u16("Supported_Max_RX_Octets"), time: try r.u16("Supported_Max_RX_Time"))
        return Response(transmit: transmit, receive: receive)
    }
}
