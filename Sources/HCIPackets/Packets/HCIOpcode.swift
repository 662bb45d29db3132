/// An HCI command opcode: OGF in the top 6 bits, OCF in the low 10 (Core v5.4 Vol 4 Part E §5.4.1).
public struct HCIOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible, Codable {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public init(ogf: UInt8, ocf: UInt16) {
        rawValue = (UInt16(ogf & 0x3F) << 10) | (ocf & 0x03FF)
    }

    /// OpCode Group Field.
    public var ogf: UInt8 { UInt8(rawValue >> 10) }
    /// OpCode Command Field.
    public var ocf: UInt16 { rawValue & 0x03FF }

    /// The command's name in the Core spec, when known.
    public var name: String? { HCIOpcode.names[rawValue] }

    /// e.g. "0x0C03 Reset", or "0xFC01 (vendor-specific)".
    public var description: String {
        let hex = "0x" + hex4(rawValue)
        if let name { return "\(hex) \(name)" }
        return ogf == 0x3F ? "\(hex) (vendor-specific)" : "\(hex) (unknown command)"
    }
}

extension HCIOpcode {
    // Link Control (OGF 0x01)
    public static let disconnect = HCIOpcode(ogf: 0x01, ocf: 0x0006)
    public static let readRemoteVersionInformation = HCIOpcode(ogf: 0x01, ocf: 0x001D)
    // Controller & Baseband (OGF 0x03)
    public static let setEventMask = HCIOpcode(ogf: 0x03, ocf: 0x0001)
    public static let reset = HCIOpcode(ogf: 0x03, ocf: 0x0003)
    public static let writeLEHostSupport = HCIOpcode(ogf: 0x03, ocf: 0x006D)
    public static let setEventMaskPage2 = HCIOpcode(ogf: 0x03, ocf: 0x0063)
    // Informational (OGF 0x04)
    public static let readLocalVersionInformation = HCIOpcode(ogf: 0x04, ocf: 0x0001)
    public static let readLocalSupportedCommands = HCIOpcode(ogf: 0x04, ocf: 0x0002)
    public static let readLocalSupportedFeatures = HCIOpcode(ogf: 0x04, ocf: 0x0003)
    public static let readBufferSize = HCIOpcode(ogf: 0x04, ocf: 0x0005)
    public static let readBDADDR = HCIOpcode(ogf: 0x04, ocf: 0x0009)
    // LE Controller (OGF 0x08)
    public static let leSetEventMask = HCIOpcode(ogf: 0x08, ocf: 0x0001)
    public static let leReadBufferSize = HCIOpcode(ogf: 0x08, ocf: 0x0002)
    public static let leReadLocalSupportedFeatures = HCIOpcode(ogf: 0x08, ocf: 0x0003)
    public static let leSetRandomAddress = HCIOpcode(ogf: 0x08, ocf: 0x0005)
    public static let leSetAdvertisingParameters = HCIOpcode(ogf: 0x08, ocf: 0x0006)
    public static let leReadAdvertisingPhysicalChannelTxPower = HCIOpcode(ogf: 0x08, ocf: 0x0007)
    public static let leSetAdvertisingData = HCIOpcode(ogf: 0x08, ocf: 0x0008)
    public static let leSetScanResponseData = HCIOpcode(ogf: 0x08, ocf: 0x0009)
    public static let leSetAdvertisingEnable = HCIOpcode(ogf: 0x08, ocf: 0x000A)
    public static let leSetScanParameters = HCIOpcode(ogf: 0x08, ocf: 0x000B)
    public static let leSetScanEnable = HCIOpcode(ogf: 0x08, ocf: 0x000C)
    public static let leCreateConnection = HCIOpcode(ogf: 0x08, ocf: 0x000D)
    public static let leCreateConnectionCancel = HCIOpcode(ogf: 0x08, ocf: 0x000E)
    public static let leReadFilterAcceptListSize = HCIOpcode(ogf: 0x08, ocf: 0x000F)
    public static let leConnectionUpdate = HCIOpcode(ogf: 0x08, ocf: 0x0013)
    public static let leReadRemoteFeatures = HCIOpcode(ogf: 0x08, ocf: 0x0016)
    public static let leEncrypt = HCIOpcode(ogf: 0x08, ocf: 0x0017)
    public static let leRand = HCIOpcode(ogf: 0x08, ocf: 0x0018)
    public static let leEnableEncryption = HCIOpcode(ogf: 0x08, ocf: 0x0019)
    public static let leLongTermKeyRequestReply = HCIOpcode(ogf: 0x08, ocf: 0x001A)
    public static let leLongTermKeyRequestNegativeReply = HCIOpcode(ogf: 0x08, ocf: 0x001B)
    public static let leReadSupportedStates = HCIOpcode(ogf: 0x08, ocf: 0x001C)
    public static let leSetDataLength = HCIOpcode(ogf: 0x08, ocf: 0x0022)
    public static let leReadSuggestedDefaultDataLength = HCIOpcode(ogf: 0x08, ocf: 0x0023)
    public static let leWriteSuggestedDefaultDataLength = HCIOpcode(ogf: 0x08, ocf: 0x0024)
    public static let leReadMaximumDataLength = HCIOpcode(ogf: 0x08, ocf: 0x002F)
    public static let leReadPHY = HCIOpcode(ogf: 0x08, ocf: 0x0030)
    public static let leSetDefaultPHY = HCIOpcode(ogf: 0x08, ocf: 0x0031)
    public static let leSetPHY = HCIOpcode(ogf: 0x08, ocf: 0x0032)
    public static let leSetAdvertisingSetRandomAddress = HCIOpcode(ogf: 0x08, ocf: 0x0035)
    public static let leSetExtendedAdvertisingParameters = HCIOpcode(ogf: 0x08, ocf: 0x0036)
    public static let leSetExtendedAdvertisingData = HCIOpcode(ogf: 0x08, ocf: 0x0037)
    public static let leSetExtendedScanResponseData = HCIOpcode(ogf: 0x08, ocf: 0x0038)
    public static let leSetExtendedAdvertisingEnable = HCIOpcode(ogf: 0x08, ocf: 0x0039)
    public static let leReadMaximumAdvertisingDataLength = HCIOpcode(ogf: 0x08, ocf: 0x003A)
    public static let leReadNumberOfSupportedAdvertisingSets = HCIOpcode(ogf: 0x08, ocf: 0x003B)
    public static let leRemoveAdvertisingSet = HCIOpcode(ogf: 0x08, ocf: 0x003C)
    public static let leClearAdvertisingSets = HCIOpcode(ogf: 0x08, ocf: 0x003D)
    public static let leSetExtendedScanParameters = HCIOpcode(ogf: 0x08, ocf: 0x0041)
    public static let leSetExtendedScanEnable = HCIOpcode(ogf: 0x08, ocf: 0x0042)
    public static let leExtendedCreateConnection = HCIOpcode(ogf: 0x08, ocf: 0x0043)
    public static let leReadBufferSizeV2 = HCIOpcode(ogf: 0x08, ocf: 0x0060)

    static let names: [UInt16: String] = [
        disconnect.rawValue: "Disconnect",
        readRemoteVersionInformation.rawValue: "Read Remote Version Information",
        setEventMask.rawValue: "Set Event Mask",
        reset.rawValue: "Reset",
        writeLEHostSupport.rawValue: "Write LE Host Support",
        setEventMaskPage2.rawValue: "Set Event Mask Page 2",
        readLocalVersionInformation.rawValue: "Read Local Version Information",
        readLocalSupportedCommands.rawValue: "Read Local Supported Commands",
        readLocalSupportedFeatures.rawValue: "Read Local Supported Features",
        readBufferSize.rawValue: "Read Buffer Size",
        readBDADDR.rawValue: "Read BD_ADDR",
        leSetEventMask.rawValue: "LE Set Event Mask",
        leReadBufferSize.rawValue: "LE Read Buffer Size [v1]",
        leReadLocalSupportedFeatures.rawValue: "LE Read Local Supported Features",
        leSetRandomAddress.rawValue: "LE Set Random Address",
        leSetAdvertisingParameters.rawValue: "LE Set Advertising Parameters",
        leReadAdvertisingPhysicalChannelTxPower.rawValue: "LE Read Advertising Physical Channel Tx Power",
        leSetAdvertisingData.rawValue: "LE Set Advertising Data",
        leSetScanResponseData.rawValue: "LE Set Scan Response Data",
        leSetAdvertisingEnable.rawValue: "LE Set Advertising Enable",
        leSetScanParameters.rawValue: "LE Set Scan Parameters",
        leSetScanEnable.rawValue: "LE Set Scan Enable",
        leCreateConnection.rawValue: "LE Create Connection",
        leCreateConnectionCancel.rawValue: "LE Create Connection Cancel",
        leReadFilterAcceptListSize.rawValue: "LE Read Filter Accept List Size",
        leConnectionUpdate.rawValue: "LE Connection Update",
        leReadPHY.rawValue: "LE Read PHY",
        leSetDefaultPHY.rawValue: "LE Set Default PHY",
        leSetPHY.rawValue: "LE Set PHY",
        leReadRemoteFeatures.rawValue: "LE Read Remote Features",
        leEncrypt.rawValue: "LE Encrypt",
        leRand.rawValue: "LE Rand",
        leEnableEncryption.rawValue: "LE Enable Encryption",
        leLongTermKeyRequestReply.rawValue: "LE Long Term Key Request Reply",
        leLongTermKeyRequestNegativeReply.rawValue: "LE Long Term Key Request Negative Reply",
        leReadSupportedStates.rawValue: "LE Read Supported States",
        leSetDataLength.rawValue: "LE Set Data Length",
        leReadSuggestedDefaultDataLength.rawValue: "LE Read Suggested Default Data Length",
        leWriteSuggestedDefaultDataLength.rawValue: "LE Write Suggested Default Data Length",
        leReadMaximumDataLength.rawValue: "LE Read Maximum Data Length",
        leSetAdvertisingSetRandomAddress.rawValue: "LE Set Advertising Set Random Address",
        leSetExtendedAdvertisingParameters.rawValue: "LE Set Extended Advertising Parameters [v1]",
        leSetExtendedAdvertisingData.rawValue: "LE Set Extended Advertising Data",
        leSetExtendedScanResponseData.rawValue: "LE Set Extended Scan Response Data",
        leSetExtendedAdvertisingEnable.rawValue: "LE Set Extended Advertising Enable",
        leReadMaximumAdvertisingDataLength.rawValue: "LE Read Maximum Advertising Data Length",
        leReadNumberOfSupportedAdvertisingSets.rawValue: "LE Read Number of Supported Advertising Sets",
        leRemoveAdvertisingSet.rawValue: "LE Remove Advertising Set",
        leClearAdvertisingSets.rawValue: "LE Clear Advertising Sets",
        leSetExtendedScanParameters.rawValue: "LE Set Extended Scan Parameters",
        leSetExtendedScanEnable.rawValue: "LE Set Extended Scan Enable",
        leExtendedCreateConnection.rawValue: "LE Extended Create Connection [v1]",
        leReadBufferSizeV2.rawValue: "LE Read Buffer Size [v2]",
    ]
}

package func hex2(_ value: UInt8) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return digits.count == 1 ? "0" + digits : digits
}

package func hex4(_ value: UInt16) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
