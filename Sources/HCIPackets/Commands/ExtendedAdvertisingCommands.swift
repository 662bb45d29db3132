/// HCI_LE_Set_Advertising_Set_Random_Address (Core v5.4 Vol 4 Part E §7.8.52).
public struct LESetAdvertisingSetRandomAddress: HCICommand {
    public static let opcode = HCIOpcode.leSetAdvertisingSetRandomAddress
    public var handle: UInt8
    public var address: BDAddress
    public init(handle: UInt8, address: BDAddress) {
        self.handle = handle
        self.address = address
    }
    public var parameters: [UInt8] { [handle] + address.littleEndianBytes }
}

/// HCI_LE_Set_Extended_Advertising_Parameters [v1] (§7.8.53). Intervals in 0.625 ms units (24 bits).
public struct LESetExtendedAdvertisingParameters: HCICommand {
    public static let opcode = HCIOpcode.leSetExtendedAdvertisingParameters
    /// Advertising_Event_Properties bits.
    public struct Properties: OptionSet, Sendable, Hashable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }
        public static let connectable = Properties(rawValue: 1 << 0)
        public static let scannable = Properties(rawValue: 1 << 1)
        public static let directed = Properties(rawValue: 1 << 2)
        public static let highDutyCycleDirected = Properties(rawValue: 1 << 3)
        public static let legacy = Properties(rawValue: 1 << 4)
        public static let anonymous = Properties(rawValue: 1 << 5)
        public static let includeTxPower = Properties(rawValue: 1 << 6)
    }

    public var handle: UInt8
    public var properties: Properties
    public var intervalMin: UInt32
    public var intervalMax: UInt32
    public var channelMap: UInt8
    public var ownAddressType: AddressType
    public var peerAddressType: AddressType
    public var peerAddress: BDAddress
    public var filterPolicy: UInt8
    public var txPower: Int8
    public var primaryPHY: UInt8
    public var secondaryMaxSkip: UInt8
    public var secondaryPHY: UInt8
    public var sid: UInt8
    public var scanRequestNotification: Bool

    public init(handle: UInt8 = 0, properties: Properties = [.connectable, .scannable, .legacy],
                intervalMin: UInt32 = 0x0800, intervalMax: UInt32 = 0x0800, ownAddressType: AddressType = .public) {
        self.handle = handle
        self.properties = properties
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.channelMap = 0x07
        self.ownAddressType = ownAddressType
        self.peerAddressType = .public
        self.peerAddress = .zero
        self.filterPolicy = 0
        self.txPower = 0x7F // no preference
        self.primaryPHY = 0x01
        self.secondaryMaxSkip = 0
        self.secondaryPHY = 0x01
        self.sid = 0
        self.scanRequestNotification = false
    }

    public var parameters: [UInt8] {
        var w = ByteWriter(capacity: 25)
        w.u8(handle); w.u16(properties.rawValue); w.u24(intervalMin); w.u24(intervalMax); w.u8(channelMap)
        w.u8(ownAddressType.rawValue); w.u8(peerAddressType.rawValue); w.address(peerAddress); w.u8(filterPolicy)
        w.u8(UInt8(bitPattern: txPower)); w.u8(primaryPHY); w.u8(secondaryMaxSkip); w.u8(secondaryPHY); w.u8(sid)
        w.u8(scanRequestNotification ? 1 : 0)
        return w.bytes
    }

    /// Selected_TX_Power.
    public static func decodeResponse(_ r: inout HCIReturnParameters) throws(HCIDecodingError) -> Int8 {
        try r.i8("Selected_TX_Power")
    }
}

/// HCI_LE_Set_Extended_Advertising_Data (§7.8.54), as one complete fragment (Operation 0x03).
public typealias LESetExtendedAdvertisingData = LEExtendedDataFragment<LEAdvertisingDataKind>

/// HCI_LE_Set_Extended_Scan_Response_Data (§7.8.55), as one complete fragment.
public typealias LESetExtendedScanResponseData = LEExtendedDataFragment<LEScanResponseDataKind>

/// LE Set Extended Advertising Data (§7.8.54) or LE Set Extended Scan Response Data (§7.8.55), which share
/// one layout: Advertising_Handle, Operation 0x03 (complete), Fragment_Preference 0x01 (no fragmentation by
/// the controller), the length, and at most 251 bytes of `data`.
public struct LEExtendedDataFragment<Kind: LEExtendedDataKind>: HCICommand {
    public static var opcode: HCIOpcode { Kind.opcode }
    public var handle: UInt8
    public var data: [UInt8]
    public init(handle: UInt8 = 0, data: [UInt8]) {
        self.handle = handle
        self.data = data
    }
    public var parameters: [UInt8] {
        [handle, 0x03, 0x01, UInt8(truncatingIfNeeded: min(data.count, 251))] + data.prefix(251)
    }
}

/// Which data an `LEExtendedDataFragment` sets: the command's opcode.
public protocol LEExtendedDataKind: Sendable {
    static var opcode: HCIOpcode { get }
}

/// The advertising data (LE Set Extended Advertising Data).
public enum LEAdvertisingDataKind: LEExtendedDataKind {
    public static let opcode = HCIOpcode.leSetExtendedAdvertisingData
}

/// The scan response data (LE Set Extended Scan Response Data).
public enum LEScanResponseDataKind: LEExtendedDataKind {
    public static let opcode = HCIOpcode.leSetExtendedScanResponseData
}

/// HCI_LE_Set_Extended_Advertising_Enable (§7.8.56) for one or more sets.
public struct LESetExtendedAdvertisingEnable: HCICommand {
    public static let opcode = HCIOpcode.leSetExtendedAdvertisingEnable
    public struct Set: Sendable, Hashable {
        public var handle: UInt8
        /// Duration in 10 ms units; 0 = until disabled.
        public var duration: UInt16
        public var maxEvents: UInt8
        public init(handle: UInt8, duration: UInt16 = 0, maxEvents: UInt8 = 0) {
            self.handle = handle
            self.duration = duration
            self.maxEvents = maxEvents
        }
    }
    public var enable: Bool
    public var sets: [Set]
    public init(_ enable: Bool, sets: [Set]) {
        self.enable = enable
        self.sets = sets
    }
    public var parameters: [UInt8] {
        var w = ByteWriter(capacity: 2 + 4 * sets.count)
        w.u8(enable ? 1 : 0); w.u8(UInt8(truncatingIfNeeded: sets.count))
        for set in sets { w.u8(set.handle); w.u16(set.duration); w.u8(set.maxEvents) }
        return w.bytes
    }
}

/// HCI_LE_Remove_Advertising_Set (§7.8.59).
public struct LERemoveAdvertisingSet: HCICommand {
    public static let opcode = HCIOpcode.leRemoveAdvertisingSet
    public var handle: UInt8
    public init(handle: UInt8) { self.handle = handle }
    public var parameters: [UInt8] { [handle] }
}

/// HCI_LE_Clear_Advertising_Sets (§7.8.60).
public struct LEClearAdvertisingSets: HCICommand {
    public static let opcode = HCIOpcode.leClearAdvertisingSets
    public init() {}
}
