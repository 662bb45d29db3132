/// HCI_LE_Set_Random_Address (Core v5.4 Vol 4 Part E §7.8.4).
public struct LESetRandomAddress: HCICommand {
    public static let opcode = HCIOpcode.leSetRandomAddress
    public var address: BDAddress
    public init(_ address: BDAddress) { self.address = address }
    public var parameters: [UInt8] { address.littleEndianBytes }
}

/// Advertising_Type of HCI_LE_Set_Advertising_Parameters (§7.8.5).
public enum LegacyAdvertisingType: UInt8, Sendable, Codable {
    /// ADV_IND: connectable and scannable undirected.
    case connectableUndirected = 0x00
    case connectableDirectedHighDuty = 0x01
    /// ADV_SCAN_IND.
    case scannableUndirected = 0x02
    /// ADV_NONCONN_IND.
    case nonConnectableUndirected = 0x03
    case connectableDirectedLowDuty = 0x04
}

/// HCI_LE_Set_Advertising_Parameters (§7.8.5). Intervals in units of 0.625 ms.
public struct LESetAdvertisingParameters: HCICommand {
    public static let opcode = HCIOpcode.leSetAdvertisingParameters
    public var intervalMin: UInt16
    public var intervalMax: UInt16
    public var type: LegacyAdvertisingType
    public var ownAddressType: AddressType
    public var peerAddressType: AddressType
    public var peerAddress: BDAddress
    public var channelMap: UInt8
    public var filterPolicy: UInt8

    public init(intervalMin: UInt16 = 0x0800, intervalMax: UInt16 = 0x0800, type: LegacyAdvertisingType = .connectableUndirected,
                ownAddressType: AddressType = .public, peerAddressType: AddressType = .public,
                peerAddress: BDAddress = .zero, channelMap: UInt8 = 0x07, filterPolicy: UInt8 = 0) {
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.type = type
        self.ownAddressType = ownAddressType
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.channelMap = channelMap
        self.filterPolicy = filterPolicy
    }

    public var parameters: [UInt8] {
        var w = ByteWriter(capacity: 15)
        w.u16(intervalMin); w.u16(intervalMax); w.u8(type.rawValue); w.u8(ownAddressType.rawValue)
        w.u8(peerAddressType.rawValue); w.address(peerAddress); w.u8(channelMap); w.u8(filterPolicy)
        return w.bytes
    }
}

/// HCI_LE_Set_Advertising_Data (§7.8.7): up to 31 octets, zero-padded.
public struct LESetAdvertisingData: HCICommand {
    public static let opcode = HCIOpcode.leSetAdvertisingData
    public var data: [UInt8]
    public init(_ data: [UInt8]) { self.data = data }
    public var parameters: [UInt8] { legacyDataParameters(data) }
}

/// HCI_LE_Set_Scan_Response_Data (§7.8.8): up to 31 octets, zero-padded.
public struct LESetScanResponseData: HCICommand {
    public static let opcode = HCIOpcode.leSetScanResponseData
    public var data: [UInt8]
    public init(_ data: [UInt8]) { self.data = data }
    public var parameters: [UInt8] { legacyDataParameters(data) }
}

func legacyDataParameters(_ data: [UInt8]) -> [UInt8] {
    let used = Array(data.prefix(31))
    return [UInt8(used.count)] + used + [UInt8](repeating: 0, count: 31 - used.count)
}

/// HCI_LE_Set_Advertising_Enable (§7.8.9).
public struct LESetAdvertisingEnable: HCICommand {
    public static let opcode = HCIOpcode.leSetAdvertisingEnable
    public var enable: Bool
    public init(_ enable: Bool) { self.enable = enable }
    public var parameters: [UInt8] { [enable ? 1 : 0] }
}
