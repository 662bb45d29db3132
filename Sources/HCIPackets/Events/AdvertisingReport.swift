/// One advertising report, from LE Advertising Report (legacy, Core v5.4 Vol 4 Part E §7.7.65.2) or
/// LE Extended Advertising Report (§7.7.65.13), in one shape.
public struct AdvertisingReport: Sendable, Hashable {
    /// Event_Type bits of the extended report; legacy event types are mapped onto them.
    public struct EventType: OptionSet, Sendable, Hashable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }
        public static let connectable = EventType(rawValue: 1 << 0)
        public static let scannable = EventType(rawValue: 1 << 1)
        public static let directed = EventType(rawValue: 1 << 2)
        public static let scanResponse = EventType(rawValue: 1 << 3)
        public static let legacy = EventType(rawValue: 1 << 4)

        /// Maps a legacy Event_Type (ADV_IND … SCAN_RSP) to the extended bits, as §7.7.65.13 tabulates.
        public init?(legacy: UInt8) {
            switch legacy {
            case 0x00: self = [.legacy, .connectable, .scannable]      // ADV_IND
            case 0x01: self = [.legacy, .connectable, .directed]       // ADV_DIRECT_IND
            case 0x02: self = [.legacy, .scannable]                    // ADV_SCAN_IND
            case 0x03: self = [.legacy]                                // ADV_NONCONN_IND
            case 0x04: self = [.legacy, .scanResponse, .scannable]     // SCAN_RSP
            default: return nil
            }
        }
    }

    public var eventType: EventType
    public var addressType: AddressType
    public var address: BDAddress
    /// RSSI in dBm; 127 means the controller could not measure it.
    public var rssi: Int8
    /// The advertising (or scan response) data, raw.
    public var data: [UInt8]
    /// Extended reports only: TX power (127 = not available), primary/secondary PHY, SID.
    public var txPower: Int8?
    public var primaryPHY: UInt8?
    public var secondaryPHY: UInt8?
    public var sid: UInt8?

    public init(eventType: EventType, addressType: AddressType, address: BDAddress, rssi: Int8, data: [UInt8]) {
        self.eventType = eventType
        self.addressType = addressType
        self.address = address
        self.rssi = rssi
        self.data = data
    }

    /// The report's AD structures, parsed leniently (a malformed tail is dropped, never a trap).
    public var advertisingData: AdvertisingData { AdvertisingData.lenientlyParsed(data) }
    public var isConnectable: Bool { eventType.contains(.connectable) }
    public var isScanResponse: Bool { eventType.contains(.scanResponse) }

    static func decodeLegacy(_ r: inout ByteReader) throws(HCIDecodingError) -> [AdvertisingReport] {
        let count = try r.u8("Num_Reports")
        var reports: [AdvertisingReport] = []
        for index in 0..<Int(count) {
            let typeByte = try r.u8("Event_Type[\(index)]")
            let addressTypeByte = try r.u8("Address_Type[\(index)]")
            let address = try r.address("Address[\(index)]")
            let length = try r.u8("Data_Length[\(index)]")
            guard length <= 31 else {
                throw HCIDecodingError("LE Advertising Report: Data_Length[\(index)] \(length) exceeds 31")
            }
            let data = try r.bytes(Int(length), "Data[\(index)]")
            let rssi = try r.i8("RSSI[\(index)]")
            guard let type = EventType(legacy: typeByte) else {
                throw HCIDecodingError("LE Advertising Report: Event_Type[\(index)] 0x\(hex2(typeByte)) is reserved")
            }
            reports.append(AdvertisingReport(eventType: type, addressType: AddressType(rawValue: addressTypeByte & 0x03) ?? .public,
                                             address: address, rssi: rssi, data: data))
        }
        return reports
    }

    static func decodeExtended(_ r: inout ByteReader) throws(HCIDecodingError) -> [AdvertisingReport] {
        let count = try r.u8("Num_Reports")
        var reports: [AdvertisingReport] = []
        for index in 0..<Int(count) {
            let type = EventType(rawValue: try r.u16("Event_Type[\(index)]"))
            let addressTypeByte = try r.u8("Address_Type[\(index)]")
            let address = try r.address("Address[\(index)]")
            let primary = try r.u8("Primary_PHY[\(index)]")
            let secondary = try r.u8("Secondary_PHY[\(index)]")
            let sid = try r.u8("Advertising_SID[\(index)]")
            let tx = try r.i8("TX_Power[\(index)]")
            let rssi = try r.i8("RSSI[\(index)]")
            _ = try r.u16("Periodic_Advertising_Interval[\(index)]")
            _ = try r.u8("Direct_Address_Type[\(index)]")
            _ = try r.address("Direct_Address[\(index)]")
            let length = try r.u8("Data_Length[\(index)]")
            let data = try r.bytes(Int(length), "Data[\(index)]")
            var report = AdvertisingReport(eventType: type, addressType: AddressType(rawValue: addressTypeByte & 0x03) ?? .public,
                                           address: address, rssi: rssi, data: data)
            report.txPower = tx
            report.primaryPHY = primary
            report.secondaryPHY = secondary
            report.sid = sid
            reports.append(report)
        }
        return reports
    }
}
