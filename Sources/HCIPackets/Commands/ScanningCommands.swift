/// LE_Scan_Type: passive listens only; active also sends SCAN_REQ for scan responses.
public enum LEScanType: UInt8, Sendable, Codable {
    case passive = 0x00
    case active = 0x01
}

/// HCI_LE_Set_Scan_Parameters (Core v5.4 Vol 4 Part E §7.8.10). Interval and window in 0.625 ms units.
public struct LESetScanParameters: HCICommand {
    public static let opcode = HCIOpcode.leSetScanParameters
    public var type: LEScanType
    public var interval: UInt16
    public var window: UInt16
    public var ownAddressType: AddressType
    public var filterPolicy: UInt8

    public init(type: LEScanType = .active, interval: UInt16 = 0x0010, window: UInt16 = 0x0010,
                ownAddressType: AddressType = .public, filterPolicy: UInt8 = 0) {
        self.type = type
        self.interval = interval
        self.window = window
        self.ownAddressType = ownAddressType
        self.filterPolicy = filterPolicy
    }

    public var parameters: [UInt8] {
        var w = ByteWriter(capacity: 7)
        w.u8(type.rawValue); w.u16(interval); w.u16(window); w.u8(ownAddressType.rawValue); w.u8(filterPolicy)
        return w.bytes
    }
}

/// HCI_LE_Set_Scan_Enable (§7.8.11).
public struct LESetScanEnable: HCICommand {
    public static let opcode = HCIOpcode.leSetScanEnable
    public var enable: Bool
    public var filterDuplicates: Bool
    public init(_ enable: Bool, filterDuplicates: Bool = false) {
        self.enable = enable
        self.filterDuplicates = filterDuplicates
    }
    public var parameters: [UInt8] { [enable ? 1 : 0, filterDuplicates ? 1 : 0] }
}

/// One PHY's scanning parameters in HCI_LE_Set_Extended_Scan_Parameters.
public struct ExtendedScanPHYParameters: Sendable, Hashable {
    public var type: LEScanType
    public var interval: UInt16
    public var window: UInt16
    public init(type: LEScanType = .active, interval: UInt16 = 0x0010, window: UInt16 = 0x0010) {
        self.type = type
        self.interval = interval
        self.window = window
    }
}

/// HCI_LE_Set_Extended_Scan_Parameters (§7.8.64): one parameter set per PHY bit (LE 1M, LE Coded).
public struct LESetExtendedScanParameters: HCICommand {
    public static let opcode = HCIOpcode.leSetExtendedScanParameters
    public var ownAddressType: AddressType
    public var filterPolicy: UInt8
    /// LE 1M parameters (bit 0 of Scanning_PHYs).
    public var le1M: ExtendedScanPHYParameters?
    /// LE Coded parameters (bit 2 of Scanning_PHYs).
    public var leCoded: ExtendedScanPHYParameters?

    public init(ownAddressType: AddressType = .public, filterPolicy: UInt8 = 0,
                le1M: ExtendedScanPHYParameters? = ExtendedScanPHYParameters(), leCoded: ExtendedScanPHYParameters? = nil) {
        self.ownAddressType = ownAddressType
        self.filterPolicy = filterPolicy
        self.le1M = le1M
        self.leCoded = leCoded
    }

    public var parameters: [UInt8] {
        var w = ByteWriter(capacity: 13)
        w.u8(ownAddressType.rawValue); w.u8(filterPolicy)
        w.u8((le1M == nil ? 0 : 0x01) | (leCoded == nil ? 0 : 0x04))
        for phy in [le1M, leCoded].compactMap({ $0 }) {
            w.u8(phy.type.rawValue); w.u16(phy.interval); w.u16(phy.window)
        }
        return w.bytes
    }
}

/// HCI_LE_Set_Extended_Scan_Enable (§7.8.65). Duration in 10 ms units, period in 1.28 s units; 0 = none.
public struct LESetExtendedScanEnable: HCICommand {
    public static let opcode = HCIOpcode.leSetExtendedScanEnable
    public var enable: Bool
    public var filterDuplicates: Bool
    public var duration: UInt16
    public var period: UInt16

    public init(_ enable: Bool, filterDuplicates: Bool = false, duration: UInt16 = 0, period: UInt16 = 0) {
        self.enable = enable
        self.filterDuplicates = filterDuplicates
        self.duration = duration
        self.period = period
    }

    public var parameters: [UInt8] {
        var w = ByteWriter(capacity: 6)
        w.u8(enable ? 1 : 0); w.u8(filterDuplicates ? 1 : 0); w.u16(duration); w.u16(period)
        return w.bytes
    }
}
