/// An HCI_LE_Meta_Event subevent (Core v5.4 Vol 4 Part E §7.7.65).
public enum LEMetaEvent: Sendable, Hashable {
    /// LE Connection Complete (0x01) and LE Enhanced Connection Complete [v1] (0x0A) / [v2] (0x29).
    case connectionComplete(LEConnectionComplete)
    /// LE Advertising Report (0x02) or LE Extended Advertising Report (0x0D), one or more reports.
    case advertisingReports([AdvertisingReport])
    /// LE Connection Update Complete (0x03).
    case connectionUpdateComplete(status: HCIStatus, handle: UInt16, interval: UInt16, latency: UInt16, supervisionTimeout: UInt16)
    /// LE Read Remote Features Complete (0x04).
    case readRemoteFeaturesComplete(status: HCIStatus, handle: UInt16, features: LEFeatures)
    /// LE Long Term Key Request (0x05, §7.7.65.5): the central asked to encrypt the link; the peripheral's
    /// host answers with LE Long Term Key Request Reply or Negative Reply. Random_Number and
    /// Encrypted_Diversifier are as the central sent them (zero for an LE Secure Connections key).
    case longTermKeyRequest(handle: UInt16, random: UInt64, ediv: UInt16)
    /// LE Data Length Change (0x07).
    case dataLengthChange(handle: UInt16, maxTxOctets: UInt16, maxTxTime: UInt16, maxRxOctets: UInt16, maxRxTime: UInt16)
    /// LE PHY Update Complete (0x0C).
    case phyUpdateComplete(status: HCIStatus, handle: UInt16, txPHY: UInt8, rxPHY: UInt8)
    /// LE Scan Timeout (0x11).
    case scanTimeout
    /// LE Advertising Set Terminated (0x12).
    case advertisingSetTerminated(status: HCIStatus, advertisingHandle: UInt8, connectionHandle: UInt16, completedEvents: UInt8)
    /// LE Scan Request Received (0x13, §7.7.65.19): an active scanner sent SCAN_REQ or AUX_SCAN_REQ to the
    /// advertising set `advertisingHandle`, which has Scan_Request_Notification_Enable set. The only trace of
    /// an active scan an advertiser gets (a passive scan sends nothing).
    case scanRequestReceived(advertisingHandle: UInt8, scannerAddressType: AddressType, scannerAddress: BDAddress)
    /// LE Channel Selection Algorithm (0x14).
    case channelSelectionAlgorithm(handle: UInt16, algorithm: UInt8)
    /// A subevent the host does not decode, kept whole.
    case unknown(subevent: UInt8, parameters: [UInt8])

    /// LE subevent codes.
    public enum Subevent {
        public static let connectionComplete: UInt8 = 0x01
        public static let advertisingReport: UInt8 = 0x02
        public static let connectionUpdateComplete: UInt8 = 0x03
        public static let readRemoteFeaturesComplete: UInt8 = 0x04
        public static let longTermKeyRequest: UInt8 = 0x05
        public static let dataLengthChange: UInt8 = 0x07
        public static let enhancedConnectionCompleteV1: UInt8 = 0x0A
        public static let phyUpdateComplete: UInt8 = 0x0C
        public static let extendedAdvertisingReport: UInt8 = 0x0D
        public static let scanTimeout: UInt8 = 0x11
        public static let advertisingSetTerminated: UInt8 = 0x12
        public static let scanRequestReceived: UInt8 = 0x13
        public static let channelSelectionAlgorithm: UInt8 = 0x14
        public static let enhancedConnectionCompleteV2: UInt8 = 0x29
    }

    init(decoding parameters: [UInt8]) throws(HCIDecodingError) {
        var r = ByteReader(parameters, context: "LE Meta")
        let subevent = try r.u8("Subevent_Code")
        switch subevent {
        case Subevent.connectionComplete, Subevent.enhancedConnectionCompleteV1, Subevent.enhancedConnectionCompleteV2:
            self = .connectionComplete(try LEConnectionComplete(subevent: subevent, reader: &r))
        case Subevent.advertisingReport:
            self = .advertisingReports(try AdvertisingReport.decodeLegacy(&r))
        case Subevent.extendedAdvertisingReport:
            self = .advertisingReports(try AdvertisingReport.decodeExtended(&r))
        case Subevent.connectionUpdateComplete:
            r = ByteReader(parameters.dropFirst(), context: "LE Connection Update Complete")
            self = .connectionUpdateComplete(status: try r.status(),
                                             handle: try r.connectionHandle(),
                                             interval: try r.u16("Connection_Interval"),
                                             latency: try r.u16("Peripheral_Latency"),
                                             supervisionTimeout: try r.u16("Supervision_Timeout"))
        case Subevent.readRemoteFeaturesComplete:
            r = ByteReader(parameters.dropFirst(), context: "LE Read Remote Features Complete")
            self = .readRemoteFeaturesComplete(status: try r.status(),
                                               handle: try r.connectionHandle(),
                                               features: LEFeatures(rawValue: try r.u64("LE_Features")))
        case Subevent.longTermKeyRequest:
            r = ByteReader(parameters.dropFirst(), context: "LE Long Term Key Request")
            self = .longTermKeyRequest(handle: try r.connectionHandle(), random: try r.u64("Random_Number"),
                                       ediv: try r.u16("Encrypted_Diversifier"))
        case Subevent.dataLengthChange:
            r = ByteReader(parameters.dropFirst(), context: "LE Data Length Change")
            self = .dataLengthChange(handle: try r.connectionHandle(), maxTxOctets: try r.u16("Max_TX_Octets"),
                                     maxTxTime: try r.u16("Max_TX_Time"), maxRxOctets: try r.u16("Max_RX_Octets"),
                                     maxRxTime: try r.u16("Max_RX_Time"))
        case Subevent.phyUpdateComplete:
            r = ByteReader(parameters.dropFirst(), context: "LE PHY Update Complete")
            self = .phyUpdateComplete(status: try r.status(), handle: try r.connectionHandle(),
                                      txPHY: try r.u8("TX_PHY"), rxPHY: try r.u8("RX_PHY"))
        case Subevent.scanTimeout:
            self = .scanTimeout
        case Subevent.advertisingSetTerminated:
            r = ByteReader(parameters.dropFirst(), context: "LE Advertising Set Terminated")
            self = .advertisingSetTerminated(status: try r.status(),
                                             advertisingHandle: try r.u8("Advertising_Handle"),
                                             connectionHandle: try r.connectionHandle(),
                                             completedEvents: try r.u8("Num_Completed_Extended_Advertising_Events"))
        case Subevent.scanRequestReceived:
            r = ByteReader(parameters.dropFirst(), context: "LE Scan Request Received")
            let handle = try r.u8("Advertising_Handle")
            let typeByte = try r.u8("Scanner_Address_Type")
            guard let type = AddressType(rawValue: typeByte) else {
                throw HCIDecodingError("LE Scan Request Received: Scanner_Address_Type 0x\(hex2(typeByte)) is not 0x00-0x03")
            }
            self = .scanRequestReceived(advertisingHandle: handle, scannerAddressType: type, scannerAddress: try r.address("Scanner_Address"))
        case Subevent.channelSelectionAlgorithm:
            r = ByteReader(parameters.dropFirst(), context: "LE Channel Selection Algorithm")
            self = .channelSelectionAlgorithm(handle: try r.connectionHandle(),
                                              algorithm: try r.u8("Channel_Selection_Algorithm"))
        default:
            self = .unknown(subevent: subevent, parameters: r.rest())
        }
    }
}
