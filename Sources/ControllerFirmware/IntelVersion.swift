/// What an Intel controller answers to Intel Read Version (vendor opcode 0xFC05), as Linux's btintel reads it
/// (`btintel_setup_combined`): sent with the parameter 0xFF, a legacy controller returns the fixed 9 octets
/// after Status (`struct intel_version`, hardware platform 0x37 first), a newer one a sequence of
/// type-length-value entries (`btintel_parse_version_tlv`).
package enum IntelVersion: Sendable, Equatable, CustomStringConvertible {
    case legacy(IntelLegacyVersion)
    case tlv(IntelVersionTLV)

    /// What a Read Version response is called in errors.
    package static let source = "the Intel Read Version (0xFC05) response"

    /// Reads the return parameters after Status, telling the forms apart as btintel does: 9 octets whose
    /// first is the hardware platform 0x37 are the legacy form, anything else TLV entries.
    package init(returnParameters bytes: [UInt8]) throws(FirmwareError) {
        if bytes.count == IntelLegacyVersion.length && bytes.first == IntelLegacyVersion.platform {
            self = .legacy(IntelLegacyVersion(bytes))
        } else {
            self = .tlv(try IntelVersionTLV(entries: bytes))
        }
    }

    /// Whether the controller runs its bootloader (and so waits for a .sfi), by its image type or firmware variant.
    package var isBootloader: Bool {
        switch self {
        case .legacy(let version): version.fwVariant == IntelLegacyVersion.bootloaderVariant
        case .tlv(let version): version.imageType == IntelVersionTLV.ImageType.bootloader.rawValue
        }
    }

    /// Whether the controller runs operational firmware already.
    package var isOperational: Bool {
        switch self {
        case .legacy(let version): version.fwVariant == IntelLegacyVersion.operationalVariant
        case .tlv(let version): version.imageType == IntelVersionTLV.ImageType.operational.rawValue
        }
    }

    /// The hardware variant (btintel's `hw_variant`, `INTEL_HW_VARIANT(cnvi_bt)` for the TLV form).
    package var hardwareVariant: UInt8 {
        switch self {
        case .legacy(let version): version.hwVariant
        case .tlv(let version): version.hardwareVariant
        }
    }

    /// The generation's name as btintel's comments give it (e.g. "TyP"), or the variant in hexadecimal.
    package var generation: String { IntelGeneration.name(hardwareVariant: hardwareVariant) }

    /// What runs, in btintel's words: the image type (TLV) or firmware variant (legacy).
    package var description: String {
        switch self {
        case .legacy(let version): "\(generation), firmware variant \(version.fwVariant.hex(2)) (0x06 bootloader, 0x23 operational)"
        case .tlv(let version): "\(generation), image type \(version.imageType.hex(2)) (0x01 bootloader, 0x03 operational)"
        }
    }
}

/// The legacy Intel Read Version return parameters (btintel.h's `struct intel_version` after its status).
package struct IntelLegacyVersion: Sendable, Equatable {
    package static let length = 9
    /// The only hardware platform btintel accepts.
    package static let platform: UInt8 = 0x37
    /// `fw_variant` of the bootloader and of operational firmware.
    package static let bootloaderVariant: UInt8 = 0x06
    package static let operationalVariant: UInt8 = 0x23

    package let hwPlatform: UInt8
    package let hwVariant: UInt8
    package let hwRevision: UInt8
    package let fwVariant: UInt8
    package let fwRevision: UInt8
    package let fwBuildNumber: UInt8
    package let fwBuildWeek: UInt8
    package let fwBuildYear: UInt8
    package let fwPatchNumber: UInt8

    /// From exactly `length` octets.
    init(_ bytes: [UInt8]) {
        (hwPlatform, hwVariant, hwRevision, fwVariant, fwRevision) = (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4])
        (fwBuildNumber, fwBuildWeek, fwBuildYear, fwPatchNumber) = (bytes[5], bytes[6], bytes[7], bytes[8])
    }

    package init(hwVariant: UInt8, hwRevision: UInt8, fwVariant: UInt8, fwRevision: UInt8, build: (UInt8, UInt8, UInt8) = (0, 0, 0)) {
        self.init([Self.platform, hwVariant, hwRevision, fwVariant, fwRevision, build.0, build.1, build.2, 0])
    }

    /// The return parameters this version is read from.
    package var bytes: [UInt8] {
        [hwPlatform, hwVariant, hwRevision, fwVariant, fwRevision, fwBuildNumber, fwBuildWeek, fwBuildYear, fwPatchNumber]
    }

    /// The file btintel asks for (`btintel_get_fw_name`): `intel/ibt-<hw_variant>-<dev_revid>.<suffix>` for
    /// SfP and WsP (0x0B, 0x0C; `devRevID` from Intel Read Boot Params), `intel/ibt-<hw_variant>-<hw_revision>-
    /// <fw_revision>.<suffix>` for JfP, ThP, HrP and CcP (0x11 to 0x14), in decimal; nil for any other variant.
    package func firmwareName(suffix: String, devRevID: UInt16? = nil) -> String? {
        switch hwVariant {
        case 0x0B, 0x0C: devRevID.map { "intel/ibt-\(hwVariant)-\($0).\(suffix)" }
        case 0x11...0x14: "intel/ibt-\(hwVariant)-\(hwRevision)-\(fwRevision).\(suffix)"
        default: nil
        }
    }
}

/// The Intel hardware generations btintel names in its comments, by hardware variant.
package enum IntelGeneration {
    package static let names: [UInt8: String] = [
        0x07: "WP", 0x08: "StP", 0x0B: "SfP", 0x0C: "WsP", 0x11: "JfP", 0x12: "ThP", 0x13: "HrP", 0x14: "CcP",
        0x17: "TyP", 0x18: "Slr", 0x19: "Slr-F", 0x1B: "Mgr", 0x1C: "GaP", 0x1D: "BzrU", 0x1E: "Bzr",
    ]

    package static func name(hardwareVariant: UInt8) -> String {
        names[hardwareVariant] ?? "hardware variant \(hardwareVariant.hex(2))"
    }
}
