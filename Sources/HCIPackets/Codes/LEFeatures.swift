// The LE Link Layer feature set.

/// The LE features a Link Layer supports: the `FeatureSet` of
/// Core v5.4 Vol 6 Part B §4.6 ("Feature support"), carried as the 8-octet
/// `LE_Features` of HCI_LE_Read_Local_Supported_Features and
/// HCI_LE_Read_Remote_Features_Complete (Vol 4 Part E §7.8.3, §7.7.65.4) and
/// in LL_FEATURE_REQ / LL_FEATURE_RSP.
///
/// Bit *n* of the set is bit *n % 8* of octet *n / 8*; the field is
/// little-endian, so `rawValue` bit *n* is feature bit *n*.
///
/// Bits 0–44 are those of Core v5.4 (bit 42 is reserved there). Bits 42 and
/// 45–48 and 63 were assigned in Core v6.0 and are named here too, because
/// newer controllers report them.
public struct LEFeatures: OptionSet, Hashable, Sendable, Codable {
    /// Bit *n* is LE feature bit *n*.
    public let rawValue: UInt64

    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Reads the 8-octet `LE_Features` field, least significant octet first.
    ///
    /// A shorter collection is treated as if the missing high octets were
    /// zero; octets past the eighth are ignored.
    public init(littleEndian bytes: some Collection<UInt8>) {
        var value: UInt64 = 0
        for (index, byte) in bytes.prefix(8).enumerated() {
            value |= UInt64(byte) << UInt64(index * 8)
        }
        self.rawValue = value
    }

    /// The 8-octet field, least significant octet first.
    public var littleEndianBytes: [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: rawValue >> UInt64($0 * 8)) }
    }

    /// The feature with bit number `bit` (0…63), or an empty set out of range.
    public init(bit: Int) {
        self.rawValue = (0..<64).contains(bit) ? UInt64(1) << UInt64(bit) : 0
    }

    /// The numbers of the set bits, lowest first.
    public var bits: [Int] {
        (0..<64).filter { rawValue & (UInt64(1) << UInt64($0)) != 0 }
    }

    /// The specification's names for the set bits, in bit order; a set bit
    /// without an assigned name is given as "bit N".
    public var names: [String] {
        bits.map { Self.name(ofBit: $0) ?? "bit \($0)" }
    }

    /// The specification's name for feature bit `bit`, or nil if unassigned.
    public static func name(ofBit bit: Int) -> String? {
        switch bit {
        case 0: "LE Encryption"
        case 1: "Connection Parameters Request procedure"
        case 2: "Extended Reject Indication"
        case 3: "Peripheral-initiated Features Exchange"
        case 4: "LE Ping"
        case 5: "LE Data Packet Length Extension"
        case 6: "LL Privacy"
        case 7: "Extended Scanning Filter Policies"
        case 8: "LE 2M PHY"
        case 9: "Stable Modulation Index - Transmitter"
        case 10: "Stable Modulation Index - Receiver"
        case 11: "LE Coded PHY"
        case 12: "LE Extended Advertising"
        case 13: "LE Periodic Advertising"
        case 14: "Channel Selection Algorithm #2"
        case 15: "LE Power Class 1"
        case 16: "Minimum Number of Used Channels procedure"
        case 17: "Connection CTE Request"
        case 18: "Connection CTE Response"
        case 19: "Connectionless CTE Transmitter"
        case 20: "Connectionless CTE Receiver"
        case 21: "Antenna Switching During CTE Transmission (AoD)"
        case 22: "Antenna Switching During CTE Reception (AoA)"
        case 23: "Receiving Constant Tone Extensions"
        case 24: "Periodic Advertising Sync Transfer - Sender"
        case 25: "Periodic Advertising Sync Transfer - Recipient"
        case 26: "Sleep Clock Accuracy Updates"
        case 27: "Remote Public Key Validation"
        case 28: "Connected Isochronous Stream - Central"
        case 29: "Connected Isochronous Stream - Peripheral"
        case 30: "Isochronous Broadcaster"
        case 31: "Synchronized Receiver"
        case 32: "Connected Isochronous Stream (Host Support)"
        case 33: "LE Power Control Request"
        case 34: "LE Power Control Request (bit 34)"
        case 35: "LE Path Loss Monitoring"
        case 36: "Periodic Advertising ADI support"
        case 37: "Connection Subrating"
        case 38: "Connection Subrating (Host Support)"
        case 39: "Channel Classification"
        case 40: "Advertising Coding Selection"
        case 41: "Advertising Coding Selection (Host Support)"
        case 42: "Decision-Based Advertising Filtering"
        case 43: "Periodic Advertising with Responses - Advertiser"
        case 44: "Periodic Advertising with Responses - Scanner"
        case 45: "Unsegmented Framed Mode"
        case 46: "Channel Sounding"
        case 47: "Channel Sounding (Host Support)"
        case 48: "Channel Sounding Tone Quality Indication"
        case 63: "LL Extended Feature Set"
        default: nil
        }
    }
}

// MARK: - Feature bits (Core v5.4 Vol 6 Part B §4.6, Table 4.4)

extension LEFeatures {
    /// Bit 0: LE Encryption.
    public static let leEncryption = LEFeatures(bit: 0)
    /// Bit 1: Connection Parameters Request procedure.
    public static let connectionParametersRequestProcedure = LEFeatures(bit: 1)
    /// Bit 2: Extended Reject Indication.
    public static let extendedRejectIndication = LEFeatures(bit: 2)
    /// Bit 3: Peripheral-initiated Features Exchange.
    public static let peripheralInitiatedFeaturesExchange = LEFeatures(bit: 3)
    /// Bit 4: LE Ping.
    public static let lePing = LEFeatures(bit: 4)
    /// Bit 5: LE Data Packet Length Extension.
    public static let leDataPacketLengthExtension = LEFeatures(bit: 5)
    /// Bit 6: LL Privacy.
    public static let llPrivacy = LEFeatures(bit: 6)
    /// Bit 7: Extended Scanning Filter Policies ("Extended Scanner Filter Policies" in older versions).
    public static let extendedScanningFilterPolicies = LEFeatures(bit: 7)
    /// Bit 8: LE 2M PHY.
    public static let le2MPHY = LEFeatures(bit: 8)
    /// Bit 9: Stable Modulation Index - Transmitter.
    public static let stableModulationIndexTransmitter = LEFeatures(bit: 9)
    /// Bit 10: Stable Modulation Index - Receiver.
    public static let stableModulationIndexReceiver = LEFeatures(bit: 10)
    /// Bit 11: LE Coded PHY.
    public static let leCodedPHY = LEFeatures(bit: 11)
    /// Bit 12: LE Extended Advertising.
    public static let leExtendedAdvertising = LEFeatures(bit: 12)
    /// Bit 13: LE Periodic Advertising.
    public static let lePeriodicAdvertising = LEFeatures(bit: 13)
    /// Bit 14: Channel Selection Algorithm #2.
    public static let channelSelectionAlgorithm2 = LEFeatures(bit: 14)
    /// Bit 15: LE Power Class 1.
    public static let lePowerClass1 = LEFeatures(bit: 15)
    /// Bit 16: Minimum Number of Used Channels procedure.
    public static let minimumNumberOfUsedChannelsProcedure = LEFeatures(bit: 16)
    /// Bit 17: Connection CTE Request.
    public static let connectionCTERequest = LEFeatures(bit: 17)
    /// Bit 18: Connection CTE Response.
    public static let connectionCTEResponse = LEFeatures(bit: 18)
    /// Bit 19: Connectionless CTE Transmitter.
    public static let connectionlessCTETransmitter = LEFeatures(bit: 19)
    /// Bit 20: Connectionless CTE Receiver.
    public static let connectionlessCTEReceiver = LEFeatures(bit: 20)
    /// Bit 21: Antenna Switching During CTE Transmission (AoD).
    public static let antennaSwitchingDuringCTETransmission = LEFeatures(bit: 21)
    /// Bit 22: Antenna Switching During CTE Reception (AoA).
    public static let antennaSwitchingDuringCTEReception = LEFeatures(bit: 22)
    /// Bit 23: Receiving Constant Tone Extensions.
    public static let receivingConstantToneExtensions = LEFeatures(bit: 23)
    /// Bit 24: Periodic Advertising Sync Transfer - Sender.
    public static let periodicAdvertisingSyncTransferSender = LEFeatures(bit: 24)
    /// Bit 25: Periodic Advertising Sync Transfer - Recipient.
    public static let periodicAdvertisingSyncTransferRecipient = LEFeatures(bit: 25)
    /// Bit 26: Sleep Clock Accuracy Updates.
    public static let sleepClockAccuracyUpdates = LEFeatures(bit: 26)
    /// Bit 27: Remote Public Key Validation.
    public static let remotePublicKeyValidation = LEFeatures(bit: 27)
    /// Bit 28: Connected Isochronous Stream - Central.
    public static let connectedIsochronousStreamCentral = LEFeatures(bit: 28)
    /// Bit 29: Connected Isochronous Stream - Peripheral.
    public static let connectedIsochronousStreamPeripheral = LEFeatures(bit: 29)
    /// Bit 30: Isochronous Broadcaster.
    public static let isochronousBroadcaster = LEFeatures(bit: 30)
    /// Bit 31: Synchronized Receiver.
    public static let synchronizedReceiver = LEFeatures(bit: 31)
    /// Bit 32: Connected Isochronous Stream (Host Support), set by the Host.
    public static let connectedIsochronousStreamHostSupport = LEFeatures(bit: 32)
    /// Bit 33: LE Power Control Request.
    public static let lePowerControlRequest = LEFeatures(bit: 33)
    /// Bit 34: named "LE Power Control Request" again since v5.3 (it shall
    /// equal bit 33); it was "LE Power Change Indication" in v5.2.
    public static let lePowerChangeIndication = LEFeatures(bit: 34)
    /// Bit 35: LE Path Loss Monitoring.
    public static let lePathLossMonitoring = LEFeatures(bit: 35)
    /// Bit 36: Periodic Advertising ADI support.
    public static let periodicAdvertisingADISupport = LEFeatures(bit: 36)
    /// Bit 37: Connection Subrating.
    public static let connectionSubrating = LEFeatures(bit: 37)
    /// Bit 38: Connection Subrating (Host Support), set by the Host.
    public static let connectionSubratingHostSupport = LEFeatures(bit: 38)
    /// Bit 39: Channel Classification.
    public static let channelClassification = LEFeatures(bit: 39)
    /// Bit 40: Advertising Coding Selection.
    public static let advertisingCodingSelection = LEFeatures(bit: 40)
    /// Bit 41: Advertising Coding Selection (Host Support), set by the Host.
    public static let advertisingCodingSelectionHostSupport = LEFeatures(bit: 41)
    /// Bit 42: Decision-Based Advertising Filtering (Core v6.0; reserved in v5.4).
    public static let decisionBasedAdvertisingFiltering = LEFeatures(bit: 42)
    /// Bit 43: Periodic Advertising with Responses - Advertiser.
    public static let periodicAdvertisingWithResponsesAdvertiser = LEFeatures(bit: 43)
    /// Bit 44: Periodic Advertising with Responses - Scanner.
    public static let periodicAdvertisingWithResponsesScanner = LEFeatures(bit: 44)
    /// Bit 45: Unsegmented Framed Mode (Core v6.0).
    public static let unsegmentedFramedMode = LEFeatures(bit: 45)
    /// Bit 46: Channel Sounding (Core v6.0).
    public static let channelSounding = LEFeatures(bit: 46)
    /// Bit 47: Channel Sounding (Host Support) (Core v6.0), set by the Host.
    public static let channelSoundingHostSupport = LEFeatures(bit: 47)
    /// Bit 48: Channel Sounding Tone Quality Indication (Core v6.0).
    public static let channelSoundingToneQualityIndication = LEFeatures(bit: 48)
    /// Bit 63: LL Extended Feature Set (Core v6.0): more feature pages exist.
    public static let llExtendedFeatureSet = LEFeatures(bit: 63)
}
