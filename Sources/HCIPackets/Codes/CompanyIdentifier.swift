// Bluetooth SIG company identifiers.

/// A company identifier assigned by the Bluetooth SIG.
///
/// Assigned Numbers §7 ("Company Identifiers") lists them. They appear as
/// `Manufacturer_Name` / `Company_Identifier` in HCI_Read_Local_Version_Information
/// and LL_VERSION_IND (Core v5.4 Vol 4 Part E §7.4.1, Vol 6 Part B §2.4.2.13),
/// and as the first two octets of Manufacturer Specific Data
/// (Core Specification Supplement Part A §1.4).
///
/// `name` knows a selection of common controller, silicon and accessory
/// vendors; any other value is kept and shown as unknown.
public struct CompanyIdentifier: RawCode, Hashable, Sendable, CustomStringConvertible, Codable {
    /// The 16-bit identifier.
    public let rawValue: UInt16

    /// Wraps any identifier; unknown ones are kept.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// The company's name as the SIG list gives it (shortened where the list
    /// adds "formerly …" notes), or nil when this table does not know it.
    public var name: String? { Self.names[rawValue] }

    /// "0x05F1 The Linux Foundation", or "0x1234 (unknown company)".
    public var description: String {
        HexFormat.prefixed(rawValue, width: 4) + " " + (name ?? "(unknown company)")
    }

    /// Every identifier this table names, in numeric order.
    public static var allKnown: [CompanyIdentifier] {
        names.keys.sorted().map(CompanyIdentifier.init(rawValue:))
    }

    // Checked against the Bluetooth SIG company identifier list as copied in
    // google/bumble (bumble/company_ids.py).
    private static let names: [UInt16: String] = [
        0x0000: "Ericsson Technology Licensing",
        0x0001: "Nokia Mobile Phones",
        0x0002: "Intel Corp.",
        0x0003: "IBM Corp.",
        0x0004: "Toshiba Corp.",
        0x0005: "3Com",
        0x0006: "Microsoft",
        0x0007: "Lucent",
        0x0008: "Motorola",
        0x0009: "Infineon Technologies AG",
        0x000A: "Qualcomm Technologies International, Ltd. (QTIL)",
        0x000B: "Silicon Wave",
        0x000C: "Digianswer A/S",
        0x000D: "Texas Instruments Inc.",
        0x000F: "Broadcom Corporation",
        0x0013: "Atmel Corporation",
        0x001D: "Qualcomm",
        0x0025: "NXP Semiconductors",
        0x0030: "ST Microelectronics",
        0x0036: "Renesas Electronics Corporation",
        0x0045: "Atheros Communications, Inc.",
        0x0046: "MediaTek, Inc.",
        0x0048: "Marvell Technology Group Ltd.",
        0x004C: "Apple, Inc.",
        0x0057: "Harman International Industries, Inc.",
        0x0059: "Nordic Semiconductor ASA",
        0x005D: "Realtek Semiconductor Corporation",
        0x0060: "RivieraWaves S.A.S",
        0x006B: "Polar Electro OY",
        0x0075: "Samsung Electronics Co. Ltd.",
        0x0087: "Garmin International, Inc.",
        0x0094: "Airoha Technology Corp.",
        0x009E: "Bose Corporation",
        0x00C4: "LG Electronics",
        0x00CD: "Microchip Technology Inc.",
        0x00D2: "Dialog Semiconductor B.V.",
        0x00D7: "Qualcomm Technologies, Inc.",
        0x00E0: "Google",
        0x010F: "HiSilicon Technologies CO., LIMITED",
        0x012D: "Sony Corporation",
        0x0131: "Cypress Semiconductor",
        0x0157: "Anhui Huami Information Technology Co., Ltd.",
        0x0171: "Amazon.com Services, LLC",
        0x018E: "Fitbit, Inc.",
        0x01AB: "Facebook, Inc.",
        0x01DA: "Logitech International SA",
        0x01EC: "Spreadtrum Communications Shanghai Ltd",
        0x01FF: "Freescale Semiconductor, Inc.",
        0x0211: "Telink Semiconductor Co. Ltd",
        0x027D: "HUAWEI Technologies Co., Ltd.",
        0x02B0: "Bestechnic(Shanghai),Ltd",
        0x02E5: "Espressif Incorporated",
        0x02FF: "Silicon Laboratories",
        0x0362: "ON Semiconductor",
        0x038F: "Xiaomi Inc.",
        0x03E0: "Actions (Zhuhai) Technology Co., Limited",
        0x048F: "BlueKitchen GmbH",
        0x0499: "Ruuvi Innovations Ltd.",
        0x05A7: "Sonos Inc",
        0x05D6: "Zhuhai Jieli technology Co.,Ltd",
        0x05F0: "beken",
        0x05F1: "The Linux Foundation",
        0x067C: "Tile, Inc.",
        0x072F: "OnePlus Electronics (Shenzhen) Co., Ltd.",
        0x079A: "GuangDong Oppo Mobile Telecommunications Corp., Ltd.",
        0x07AF: "Hong Kong Bouffalo Lab Limited",
        0x0837: "vivo Mobile Communication Co., Ltd.",
        0x09A3: "ARDUINO SA",
        0x09AC: "Ambiq",
        0x0A24: "Atmosic Technologies, Inc.",
        0x0A76: "Synaptics Incorporated",
    ]
}

// MARK: - Constants

extension CompanyIdentifier {
    /// Ericsson (0x0000).
    public static let ericsson = CompanyIdentifier(rawValue: 0x0000)
    /// Nokia Mobile Phones (0x0001).
    public static let nokia = CompanyIdentifier(rawValue: 0x0001)
    /// Intel Corp. (0x0002).
    public static let intel = CompanyIdentifier(rawValue: 0x0002)
    /// IBM Corp. (0x0003).
    public static let ibm = CompanyIdentifier(rawValue: 0x0003)
    /// Toshiba Corp. (0x0004).
    public static let toshiba = CompanyIdentifier(rawValue: 0x0004)
    /// 3Com (0x0005).
    public static let threeCom = CompanyIdentifier(rawValue: 0x0005)
    /// Microsoft (0x0006).
    public static let microsoft = CompanyIdentifier(rawValue: 0x0006)
    /// Motorola (0x0008).
    public static let motorola = CompanyIdentifier(rawValue: 0x0008)
    /// Infineon Technologies AG (0x0009).
    public static let infineon = CompanyIdentifier(rawValue: 0x0009)
    /// Qualcomm Technologies International, Ltd. (QTIL), formerly CSR (0x000A).
    public static let qualcommTechnologiesInternational = CompanyIdentifier(rawValue: 0x000A)
    /// Texas Instruments Inc. (0x000D).
    public static let texasInstruments = CompanyIdentifier(rawValue: 0x000D)
    /// Broadcom Corporation (0x000F).
    public static let broadcom = CompanyIdentifier(rawValue: 0x000F)
    /// Qualcomm (0x001D).
    public static let qualcomm = CompanyIdentifier(rawValue: 0x001D)
    /// NXP Semiconductors (0x0025).
    public static let nxp = CompanyIdentifier(rawValue: 0x0025)
    /// ST Microelectronics (0x0030).
    public static let stMicroelectronics = CompanyIdentifier(rawValue: 0x0030)
    /// Renesas Electronics Corporation (0x0036).
    public static let renesas = CompanyIdentifier(rawValue: 0x0036)
    /// MediaTek, Inc. (0x0046).
    public static let mediaTek = CompanyIdentifier(rawValue: 0x0046)
    /// Marvell Technology Group Ltd. (0x0048).
    public static let marvell = CompanyIdentifier(rawValue: 0x0048)
    /// Apple, Inc. (0x004C).
    public static let apple = CompanyIdentifier(rawValue: 0x004C)
    /// Nordic Semiconductor ASA (0x0059).
    public static let nordicSemiconductor = CompanyIdentifier(rawValue: 0x0059)
    /// Realtek Semiconductor Corporation (0x005D).
    public static let realtek = CompanyIdentifier(rawValue: 0x005D)
    /// Polar Electro OY (0x006B).
    public static let polar = CompanyIdentifier(rawValue: 0x006B)
    /// Samsung Electronics Co. Ltd. (0x0075).
    public static let samsung = CompanyIdentifier(rawValue: 0x0075)
    /// Garmin International, Inc. (0x0087).
    public static let garmin = CompanyIdentifier(rawValue: 0x0087)
    /// Airoha Technology Corp. (0x0094).
    public static let airoha = CompanyIdentifier(rawValue: 0x0094)
    /// Bose Corporation (0x009E).
    public static let bose = CompanyIdentifier(rawValue: 0x009E)
    /// LG Electronics (0x00C4).
    public static let lg = CompanyIdentifier(rawValue: 0x00C4)
    /// Microchip Technology Inc. (0x00CD).
    public static let microchip = CompanyIdentifier(rawValue: 0x00CD)
    /// Dialog Semiconductor B.V. (0x00D2).
    public static let dialogSemiconductor = CompanyIdentifier(rawValue: 0x00D2)
    /// Google (0x00E0).
    public static let google = CompanyIdentifier(rawValue: 0x00E0)
    /// Sony Corporation (0x012D).
    public static let sony = CompanyIdentifier(rawValue: 0x012D)
    /// Cypress Semiconductor (0x0131).
    public static let cypressSemiconductor = CompanyIdentifier(rawValue: 0x0131)
    /// Amazon.com Services, LLC (0x0171).
    public static let amazon = CompanyIdentifier(rawValue: 0x0171)
    /// Fitbit, Inc. (0x018E).
    public static let fitbit = CompanyIdentifier(rawValue: 0x018E)
    /// Telink Semiconductor Co. Ltd (0x0211).
    public static let telink = CompanyIdentifier(rawValue: 0x0211)
    /// HUAWEI Technologies Co., Ltd. (0x027D).
    public static let huawei = CompanyIdentifier(rawValue: 0x027D)
    /// Bestechnic (Shanghai), Ltd (0x02B0).
    public static let bestechnic = CompanyIdentifier(rawValue: 0x02B0)
    /// Espressif Incorporated (0x02E5).
    public static let espressif = CompanyIdentifier(rawValue: 0x02E5)
    /// Silicon Laboratories (0x02FF).
    public static let siliconLaboratories = CompanyIdentifier(rawValue: 0x02FF)
    /// Xiaomi Inc. (0x038F).
    public static let xiaomi = CompanyIdentifier(rawValue: 0x038F)
    /// Actions (Zhuhai) Technology Co., Limited (0x03E0).
    public static let actions = CompanyIdentifier(rawValue: 0x03E0)
    /// The Linux Foundation (0x05F1); also the Zephyr Project's default `BT_COMPANY_ID`.
    public static let linuxFoundation = CompanyIdentifier(rawValue: 0x05F1)
}
