import ControllerFirmware
import Synchronization
@testable import HCIPackets
import TestSupport

/// An Intel AX210 (TyP, 8087:0032) as btintel meets it, behind `ScriptedController`: its Intel Read Version
/// answers the TLV form (btintel.h's types) with CNVi and CNVr top 0x410 (so btintel asks for
/// intel/ibt-0041-0041.sfi), hardware variant 0x17, secure boot engine `sbeType`, minimum firmware build
/// `minimumFirmware`, image type 0x01
/// (bootloader) until booted, then 0x03. Each Secure Send and Write DDC gets a Command Complete; after
/// `fragmentsBeforeLoaded` Secure Sends it also sends the vendor event 0xFF 0x06 "firmware loading complete"
/// (unless `silentAfterDownload`); Intel Reset gets a Command Complete, then (unless `silentAfterReset`) the
/// vendor event 0xFF 0x02 "bootup" and it runs operational firmware.
struct ScriptedIntelController {
    let controller: ScriptedController

    static let readVersion = HCIOpcode(ogf: 0x3F, ocf: 0x05)
    static let secureSend = HCIOpcode(ogf: 0x3F, ocf: 0x09)
    static let intelReset = HCIOpcode(ogf: 0x3F, ocf: 0x01)
    static let writeDDC = HCIOpcode(ogf: 0x3F, ocf: 0x8B)
    static let readBootParams = HCIOpcode(ogf: 0x3F, ocf: 0x0D)

    static func version(operational: Bool, sbeType: UInt8, minimumFirmware: IntelFirmwareBuild = .init(number: 1, week: 1, year: 20)) -> [UInt8] {
        var version = IntelVersionTLV()
        version.cnviTop = 0x0000_0410
        version.cnvrTop = 0x0000_0410
        version.cnviBT = 0x0017_3700
        version.imageType = operational ? 0x03 : 0x01
        version.sbeType = sbeType
        version.minimumFirmware = minimumFirmware
        return version.entries
    }

    /// A controller of a legacy generation (SfP…CcP) answers the legacy form `legacy` (firmware variant 0x06,
    /// or once booted 0x23), but JfP…CcP's operational firmware asked with 0xFF answers the TLV form, which
    /// names only its hardware variant; Intel Read Boot Params says device revision 5.
    static func legacyVersion(_ legacy: IntelLegacyVersion, operational: Bool) -> [UInt8] {
        IntelLegacyVersion(hwVariant: legacy.hwVariant, hwRevision: legacy.hwRevision, fwVariant: operational ? 0x23 : 0x06,
                           fwRevision: legacy.fwRevision, build: (1, 1, 20)).bytes
    }

    init(sbeType: UInt8 = 0, minimumFirmware: IntelFirmwareBuild = .init(number: 1, week: 1, year: 20), legacy: IntelLegacyVersion? = nil,
         startsOperational: Bool = false, fragmentsBeforeLoaded: Int = .max,
         silentAfterDownload: Bool = false, silentAfterReset: Bool = false, loadResult: UInt8 = 0) throws {
        let state = Mutex((operational: startsOperational, secureSends: 0))
        controller = try ScriptedController { command, _ in
            switch command.opcode {
            case Self.readVersion:
                let operational = state.withLock { $0.operational }
                if let legacy {
                    // btintel: legacy devices answer the legacy form whatever the parameter; JfP…CcP's operational
                    // firmware answers the TLV form when asked with 0xFF.
                    if command.parameters.isEmpty || !operational || !(0x11...0x14).contains(legacy.hwVariant) {
                        return ScriptedController.commandComplete(command.opcode, Self.legacyVersion(legacy, operational: operational))
                    }
                    var tlv = IntelVersionTLV()
                    tlv.cnviBT = 0x0000_3700 | UInt32(legacy.hwVariant) << 16
                    tlv.imageType = operational ? 0x03 : 0x01
                    return ScriptedController.commandComplete(command.opcode, tlv.entries)
                }
                return ScriptedController.commandComplete(command.opcode, Self.version(operational: operational, sbeType: sbeType, minimumFirmware: minimumFirmware))
            case Self.readBootParams:
                // btintel.h's intel_boot_params after its status: OTP format, content, patch, dev_revid (5), …
                return ScriptedController.commandComplete(command.opcode, [0, 0, 0, 5, 0, 1, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 1, 1, 20, 0, 0])
            case Self.secureSend:
                let count = state.withLock { state -> Int in
                    state.secureSends += 1
                    return state.secureSends
                }
                var reply = ScriptedController.commandComplete(command.opcode)
                if count == fragmentsBeforeLoaded && !silentAfterDownload {
                    reply += ScriptedController.event(0xFF, [0x06, loadResult, 0x09, 0xFC, 0x00])
                }
                return reply
            case Self.intelReset:
                if silentAfterReset { return ScriptedController.commandComplete(command.opcode) }
                state.withLock { $0.operational = true }
                return ScriptedController.commandComplete(command.opcode) + ScriptedController.event(0xFF, [0x02, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00])
            case Self.writeDDC:
                return ScriptedController.commandComplete(command.opcode)
            default:
                return ScriptedController.healthy(command) ?? []
            }
        }
    }

    /// The Secure Send commands the host sent: each one's parameters (type octet, then data).
    var secureSends: [[UInt8]] { controller.commands.filter { $0.opcode == Self.secureSend }.map(\.parameters) }
}
