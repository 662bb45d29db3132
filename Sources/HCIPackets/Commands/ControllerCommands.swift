/// HCI_Reset (Core v5.4 Vol 4 Part E §7.3.2): the controller returns to its power-on state and drops
/// every connection without Disconnection Complete events.
public struct Reset: HCICommand {
    public static let opcode = HCIOpcode.reset
    public init() {}
}

/// HCI_Set_Event_Mask (§7.3.1).
public struct SetEventMask: HCICommand {
    public static let opcode = HCIOpcode.setEventMask
    public var mask: UInt64
    /// The events the host handles: Disconnection Complete, Encryption Change, Read Remote Version
    /// Complete, Hardware Error, Data Buffer Overflow, Encryption Key Refresh Complete, LE Meta (bits 4, 7,
    /// 11, 15, 25, 47, 61).
    public static let hostDefault: UInt64 = [4, 7, 11, 15, 25, 47, 61].reduce(0) { $0 | 1 << $1 }
    public init(mask: UInt64 = SetEventMask.hostDefault) { self.mask = mask }
    public var parameters: [UInt8] { var w = ByteWriter(); w.u64(mask); return w.bytes }
}

/// HCI_LE_Set_Event_Mask (§7.8.1).
public struct LESetEventMask: HCICommand {
    public static let opcode = HCIOpcode.leSetEventMask
    public var mask: UInt64
    /// LE Connection Complete, Advertising Report, Connection Update Complete, Read Remote Features
    /// Complete, Long Term Key Request, Data Length Change, Enhanced Connection Complete, PHY Update
    /// Complete, Extended Advertising Report, Scan Timeout, Advertising Set Terminated, Scan Request
    /// Received, Channel Selection Algorithm (bits 0-4, 6, 9, 11, 12, 16-19). Scan Request Received comes
    /// only from a set whose Scan_Request_Notification_Enable the host set.
    public static let hostDefault: UInt64 = [0, 1, 2, 3, 4, 6, 9, 11, 12, 16, 17, 18, 19].reduce(0) { $0 | 1 << $1 }
    public init(mask: UInt64 = LESetEventMask.hostDefault) { self.mask = mask }
    public var parameters: [UInt8] { var w = ByteWriter(); w.u64(mask); return w.bytes }
}

/// HCI_Write_LE_Host_Support (§7.3.79).
public struct WriteLEHostSupport: HCICommand {
    public static let opcode = HCIOpcode.writeLEHostSupport
    public var supported: Bool
    public init(supported: Bool = true) { self.supported = supported }
    public var parameters: [UInt8] { [supported ? 1 : 0, 0] }
}
