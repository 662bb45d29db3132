import BluetoothCrypto
import ControllerFirmware
import Foundation

/// `hil firmware inspect FILE.sfi [--sbe-type N] [--json]`: what an Intel bootloader would be sent from the
/// .sfi, cut as Linux's btintel cuts it — the generation its name says, the headers for the secure boot
/// engine, the command buffer's 4-octet-aligned chunks in Secure Send fragments of at most 252 octets, the
/// boot address of its Intel Write Boot Params, and the SHA-256 of the exact parameters sent (type octet then
/// data, every fragment in order); the .ddc beside it, as Write DDC commands.
enum FirmwareInspectIntel {
    static let packageHint = "Intel firmware comes from Debian's firmware-iwlwifi (component non-free-firmware; "
        + "scripts/install-deps --firmware unpacks it into .build/firmware/lib/firmware/intel)"

    /// The generation a file's name says: `ibt-<cnvi>-<cnvr>` (TLV: the packed CNVi and CNVr tops), or
    /// `ibt-<hw_variant>-<hw_revision>-<fw_revision>` / `ibt-<hw_variant>-<dev_revid>` (legacy, decimal).
    static func chip(fileName: String) -> (chip: String, json: [String: Any]) {
        let stem = fileName.replacingOccurrences(of: ".sfi", with: "").replacingOccurrences(of: ".ddc", with: "")
        let parts = stem.split(separator: "-").dropFirst().map(String.init)
        if parts.count == 2, parts.allSatisfy({ $0.count == 4 }), let cnvi = UInt16(parts[0], radix: 16), let cnvr = UInt16(parts[1], radix: 16) {
            let (iType, iStep) = unpack(cnvi), (rType, rStep) = unpack(cnvr)
            let radio = IntelCNVxTop.names[rType].map { " (\($0))" } ?? ""
            let text = "CNVi top type 0x\(String(iType, radix: 16)) step \(iStep), CNVr top type 0x\(String(rType, radix: 16)) step \(rStep)\(radio): "
                + "a TLV-generation controller (Intel Read Version TLV)"
            return (text, ["form": "tlv", "cnvi_top_type": Int(iType), "cnvi_top_step": Int(iStep), "cnvr_top_type": Int(rType), "cnvr_top_step": Int(rStep)])
        }
        if (2...3).contains(parts.count), let variant = UInt8(parts[0]), parts.dropFirst().allSatisfy({ Int($0) != nil }) {
            let generation = IntelGeneration.name(hardwareVariant: variant)
            let detail = parts.count == 3 ? "hardware revision \(parts[1]), firmware revision \(parts[2])" : "device revision \(parts[1])"
            return ("\(generation) (hardware variant 0x\(String(variant, radix: 16)), \(detail)): a legacy controller (Intel Read Version, legacy form)",
                    ["form": "legacy", "hw_variant": Int(variant), "generation": generation])
        }
        return ("unknown (the name is not one btintel derives)", ["form": NSNull()])
    }

    /// The CNVx top type and step a file name's 4 digits pack (the inverse of `IntelVersionTLV.packedTop`).
    static func unpack(_ packed: UInt16) -> (type: UInt16, step: UInt16) {
        let swapped = packed.byteSwapped
        return (swapped >> 4, swapped & 0xF)
    }

    static func inspect(file: String, sbeType: UInt8?) throws -> FirmwareCommand.Inspection {
        let sfi = try IntelSFI(bytes: try FirmwareCommand.read(file, "firmware"), file: file)
        let engine: IntelSFI.Engine
        switch sbeType ?? 0 {
        case 0: engine = .rsa
        case 1: engine = .ecdsa
        case let other: throw UsageError("--sbe-type is 0 (RSA) or 1 (ECDSA), the bootloader's secure boot engine, not \(other)")
        }
        let fragments = try sfi.fragments(engine: engine)
        let sent = try sfi.sent(engine: engine)
        let sha256 = try SHA256.hexDigest(sent)
        let fileName = URL(fileURLWithPath: file).lastPathComponent
        let (chip, chipJSON) = chip(fileName: fileName)
        let layout = sfi.hasECDSAHeader ? "RSA header (644 octets) + ECDSA header (320 octets)" : "RSA header (644 octets)"
        var json: [String: Any] = [
            "file": file, "chip": chip, "controller": chipJSON, "layout": sfi.hasECDSAHeader ? "rsa+ecdsa" : "rsa",
            "sbe_type": Int(engine.rawValue), "length": sent.count, "sha256": sha256, "fragments": fragments.count,
            "data_chunks": sfi.chunks.count, "command_buffer_length": sfi.chunks.reduce(0) { $0 + $1.count },
            "boot_address": sfi.bootParams.map { Int($0.address) as Any } ?? NSNull(),
            "firmware_build": sfi.bootParams.map { $0.build.description as Any } ?? NSNull(),
        ]
        var lines = [
            "chip         \(chip)",
            "sfi          \(layout), then a command buffer of \(sfi.chunks.reduce(0) { $0 + $1.count }) octets in \(sfi.chunks.count) chunks",
            "boot         " + (sfi.bootParams.map { "address 0x\(String($0.address, radix: 16)) (Intel Write Boot Params), firmware build \($0.build)" }
                               ?? "no Intel Write Boot Params: Intel Reset boots address 0"),
            "engine       \(engine == .rsa ? "RSA (sbe_type 0x00)" : "ECDSA (sbe_type 0x01)")",
            "download     \(sent.count) octets (type octet and data) in \(fragments.count) Secure Send fragments of up to \(IntelSFI.fragmentLength)",
            "sha256       \(sha256)",
        ]
        let ddcPath = (file as NSString).deletingPathExtension + ".ddc"
        if FileManager.default.fileExists(atPath: ddcPath) {
            let ddc = try IntelDDC(bytes: try FirmwareCommand.read(ddcPath, "DDC"), file: ddcPath)
            let ddcSHA = try SHA256.hexDigest(ddc.commands.flatMap { $0 })
            json["ddc"] = ddcPath; json["ddc_commands"] = ddc.records.count; json["ddc_sha256"] = ddcSHA
            lines.append("ddc          \(ddcPath): \(ddc.records.count) Write DDC commands, \(ddc.bytes.count) octets, sha256 \(ddcSHA)")
        } else {
            json["ddc"] = NSNull()
            lines.append("ddc          none beside it")
        }
        return FirmwareCommand.Inspection(text: lines.map { $0 + "\n" }.joined(), json: json)
    }
}

/// CNVi/CNVr top types Linux's btintel names in its comments (`btintel_set_ppag`, `btintel_set_dsm_reset_method`)
/// and the AX210's radio (its firmware is ibt-0041-0041).
enum IntelCNVxTop {
    static let names: [UInt16: String] = [0x410: "TyP, the AX210's", 0x504: "HrP2", 0x202: "JfP2", 0x201: "JfP1", 0x910: "GaP2"]
}
