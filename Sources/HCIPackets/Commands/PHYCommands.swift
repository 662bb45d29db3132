// The LE PHY commands (Core v5.4 Vol 4 Part E §7.8.47–49).

/// HCI_LE_Set_PHY (§7.8.49): the PHYs this side prefers for a link; completed by LE PHY Update Complete on
/// both sides. PHY bit fields: bit 0 LE 1M, bit 1 LE 2M, bit 2 LE Coded; All_PHYs bit 0 (bit 1): no
/// preference for transmitting (receiving).
public struct LESetPHY: HCICommand {
    public static let opcode = HCIOpcode.leSetPHY
    public static let completion = HCICommandCompletion.status
    public var handle: UInt16
    public var allPHYs: UInt8
    public var transmitPHYs: UInt8
    public var receivePHYs: UInt8
    public var options: UInt16

    public init(handle: UInt16, allPHYs: UInt8 = 0, transmitPHYs: UInt8, receivePHYs: UInt8, options: UInt16 = 0) {
        self.handle = handle
        self.allPHYs = allPHYs
        self.transmitPHYs = transmitPHYs
        self.receivePHYs = receivePHYs
        self.options = options
    }

    public var parameters: [UInt8] {
        var w = ByteWriter(capacity: 7)
        w.u16(handle); w.u8(allPHYs); w.u8(transmitPHYs); w.u8(receivePHYs); w.u16(options)
        return w.bytes
    }
}

/// HCI_LE_Set_Default_PHY (§7.8.48): the PHYs this host prefers for every link, which the controller offers
/// when a peer starts the PHY Update procedure. Bit fields as for LE Set PHY.
public struct LESetDefaultPHY: HCICommand {
    public static let opcode = HCIOpcode.leSetDefaultPHY
    public var allPHYs: UInt8
    public var transmitPHYs: UInt8
    public var receivePHYs: UInt8

    public init(allPHYs: UInt8 = 0, transmitPHYs: UInt8, receivePHYs: UInt8) {
        self.allPHYs = allPHYs
        self.transmitPHYs = transmitPHYs
        self.receivePHYs = receivePHYs
    }

    public var parameters: [UInt8] { [allPHYs, transmitPHYs, receivePHYs] }
}
