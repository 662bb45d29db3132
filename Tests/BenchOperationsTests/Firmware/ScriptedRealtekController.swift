import Synchronization
@testable import HCIPackets
import TestSupport

/// A Realtek RTL8761BU as btrtl meets it, behind `ScriptedController`: in ROM state Read Local Version reports
/// HCI version 0x0A, HCI revision 0x000B and LMP subversion 0x8761 (btrtl's `rtl8761bu` row); it answers the
/// vendor Read ROM Version with `romVersion` and each Download (0xFC20) with a Command Complete echoing the
/// index, and from the Download marked last (bit 7) on it reports `patchedVersion` (HCI revision << 16 | LMP
/// subversion). `silentAfter` makes it stop answering Downloads after that many. The downloaded bytes are the
/// recorded commands' (`downloads`).
struct ScriptedRealtekController {
    let controller: ScriptedController

    /// Debian's rtl8761bu_fw.bin reports fw version 0x09a98a6b once loaded.
    static let debianVersion: UInt32 = 0x09A9_8A6B
    static let readROMVersion = HCIOpcode(ogf: 0x3F, ocf: 0x6D)
    static let download = HCIOpcode(ogf: 0x3F, ocf: 0x20)

    init(romVersion: UInt8 = 1, patchedVersion: UInt32 = debianVersion, startsPatched: Bool = false, silentAfter: Int = .max) throws {
        let state = Mutex((patched: startsPatched, downloads: 0))
        controller = try ScriptedController { command, _ in
            switch command.opcode {
            case .reset:
                return ScriptedController.commandComplete(.reset)
            case .readLocalVersionInformation:
                let patched = state.withLock { $0.patched }
                let revision = patched ? UInt16(patchedVersion >> 16) : 0x000B
                let subversion = patched ? UInt16(patchedVersion & 0xFFFF) : 0x8761
                return ScriptedController.commandComplete(command.opcode, [0x0A, UInt8(revision & 0xFF), UInt8(revision >> 8), 0x0A, 0x5D, 0x00,
                                                                           UInt8(subversion & 0xFF), UInt8(subversion >> 8)])
            case Self.readROMVersion:
                return ScriptedController.commandComplete(command.opcode, [romVersion])
            case Self.download:
                let index = command.parameters.first ?? 0
                let answered = state.withLock { state -> Bool in
                    guard state.downloads < silentAfter else { return false }
                    state.downloads += 1
                    if index & 0x80 != 0 { state.patched = true }
                    return true
                }
                return answered ? ScriptedController.commandComplete(command.opcode, [index]) : []
            default:
                return ScriptedController.healthy(command) ?? []
            }
        }
    }

    /// The Download commands the host sent: each one's index octet and the octets after it.
    var downloads: [(index: UInt8, data: [UInt8])] {
        controller.commands.filter { $0.opcode == Self.download }.map { ($0.parameters.first ?? 0, Array($0.parameters.dropFirst())) }
    }
}
