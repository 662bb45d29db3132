/// A Realtek Bluetooth controller as Linux's btrtl (drivers/bluetooth/btrtl.c, its `ic_id_table`) knows it:
/// what Read Local Version reports (LMP subversion, HCI revision, HCI version) and the bus it is on, and the
/// firmware and config files it needs from `rtl_bt/`.
package struct RealtekChip: Sendable, Equatable {
    package enum Bus: String, Sendable { case usb, uart }

    /// The LMP subversion of the ROM firmware (Read Local Version), e.g. 0x8761.
    package let lmpSubversion: UInt16
    package let hciRevision: UInt16
    /// The HCI version; 0 in the table matches any.
    package let hciVersion: UInt8
    package let bus: Bus
    /// The controller's name as btrtl reports it (its `hw_info`), e.g. "rtl8761bu".
    package let name: String
    /// The epatch file in `rtl_bt/`, e.g. "rtl8761bu_fw.bin".
    package let firmwareFile: String
    /// The config file in `rtl_bt/`, if the chip has one.
    package let configFile: String?
    /// Whether the download cannot go without the config file.
    package let configNeeded: Bool
    /// Whether the controller answers the vendor Read ROM Version (0xFC6D); the patch is chosen by it.
    package let hasROMVersion: Bool

    /// The chips with an epatch that btrtl matches on Read Local Version alone (the 8723CS, told apart by a
    /// vendor register read, is left out), in btrtl's order: the first that matches is the chip.
    package static let known: [RealtekChip] = [
        chip(0x1200, 0xb, 0x6, .usb, "rtl8723au", "rtl8723a", config: false, rom: false, hasConfig: false),
        chip(0x8723, 0xb, 0x6, .uart, "rtl8723bs", "rtl8723bs", config: true),
        chip(0x8723, 0xb, 0x6, .usb, "rtl8723bu", "rtl8723b", config: false),
        chip(0x8723, 0xd, 0x8, .usb, "rtl8723du", "rtl8723d", config: true),
        chip(0x8723, 0xd, 0x8, .uart, "rtl8723ds", "rtl8723ds", config: true),
        chip(0x8821, 0xa, 0x6, .usb, "rtl8821au", "rtl8821a", config: false),
        chip(0x8821, 0xc, 0x8, .usb, "rtl8821cu", "rtl8821c", config: false),
        chip(0x8821, 0xc, 0x8, .uart, "rtl8821cs", "rtl8821cs", config: true),
        chip(0x8761, 0xa, 0x6, .usb, "rtl8761au", "rtl8761a", config: false),
        chip(0x8761, 0xb, 0xa, .uart, "rtl8761btv", "rtl8761b", config: false),
        chip(0x8761, 0xb, 0xa, .usb, "rtl8761bu", "rtl8761bu", config: false),
        chip(0x8761, 0xe, 0x0, .usb, "rtl8761cu", "rtl8761cu", config: false),
        chip(0x8822, 0xc, 0x8, .uart, "rtl8822cs", "rtl8822cs", config: true),
        chip(0x8822, 0xc, 0xa, .uart, "rtl8822cs", "rtl8822cs", config: true),
        chip(0x8822, 0xc, 0xa, .usb, "rtl8822cu", "rtl8822cu", config: false),
        chip(0x8822, 0xb, 0x7, .usb, "rtl8822bu", "rtl8822b", config: true),
        chip(0x8852, 0xa, 0xb, .usb, "rtl8852au", "rtl8852au", config: false),
        chip(0x8852, 0xb, 0xb, .uart, "rtl8852bs", "rtl8852bs", config: true),
        chip(0x8852, 0xb, 0xb, .usb, "rtl8852bu", "rtl8852bu", config: false),
        chip(0x8852, 0xc, 0xc, .usb, "rtl8852cu", "rtl8852cu", config: false),
        chip(0x8851, 0xb, 0xc, .usb, "rtl8851bu", "rtl8851bu", config: false),
        chip(0x8922, 0xa, 0xc, .usb, "rtl8922au", "rtl8922au", config: false),
        chip(0x8852, 0x87, 0xc, .usb, "rtl8852btu", "rtl8852btu", config: false),
    ]

    private static func chip(_ lmp: UInt16, _ revision: UInt16, _ version: UInt8, _ bus: Bus, _ name: String, _ stem: String,
                             config: Bool, rom: Bool = true, hasConfig: Bool = true) -> RealtekChip {
        RealtekChip(lmpSubversion: lmp, hciRevision: revision, hciVersion: version, bus: bus, name: name,
                    firmwareFile: stem + "_fw.bin", configFile: hasConfig ? stem + "_config.bin" : nil,
                    configNeeded: config, hasROMVersion: rom)
    }

    /// The chip a controller is by what Read Local Version returned, as btrtl matches it; nil for one it
    /// does not know (or one already running patched firmware, whose LMP subversion has changed).
    package static func matching(lmpSubversion: UInt16, hciRevision: UInt16, hciVersion: UInt8, bus: Bus = .usb) -> RealtekChip? {
        known.first {
            $0.lmpSubversion == lmpSubversion && $0.hciRevision == hciRevision
                && ($0.hciVersion == hciVersion || $0.hciVersion == 0) && $0.bus == bus
        }
    }

    /// The chips whose firmware is the file named `fileName` (a path's last component): its `_fw.bin`, or
    /// the `_fw_v2.bin` btrtl tries first for the 8852C.
    package static func using(firmwareFile fileName: String) -> [RealtekChip] {
        known.filter { $0.firmwareFile == fileName || $0.firmwareFile.replacingSuffix("_fw.bin", with: "_fw_v2.bin") == fileName }
    }

    /// The firmware files btrtl names for the 8852C (HCI revision 0xC): `_fw_v2.bin` first, then `_fw.bin`.
    package var firmwareFiles: [String] {
        if lmpSubversion == 0x8852 && hciRevision == 0xc {
            return [firmwareFile.replacingSuffix("_fw.bin", with: "_fw_v2.bin"), firmwareFile]
        }
        return [firmwareFile]
    }
}

/// An epatch's project ID (its extension section says which chip family it is for) and the LMP subversion of
/// the ROM it patches: btrtl refuses a file whose project is for another LMP subversion.
package struct RealtekProject: Sendable, Equatable {
    package let id: UInt8
    /// The family, e.g. "RTL8761B".
    package let chip: String
    package let lmpSubversion: UInt16

    package static let known: [RealtekProject] = [
        .init(id: 0, chip: "RTL8723A", lmpSubversion: 0x1200), .init(id: 1, chip: "RTL8723B", lmpSubversion: 0x8723),
        .init(id: 2, chip: "RTL8821A", lmpSubversion: 0x8821), .init(id: 3, chip: "RTL8761A", lmpSubversion: 0x8761),
        .init(id: 7, chip: "RTL8703B", lmpSubversion: 0x8703), .init(id: 8, chip: "RTL8822B", lmpSubversion: 0x8822),
        .init(id: 9, chip: "RTL8723D", lmpSubversion: 0x8723), .init(id: 10, chip: "RTL8821C", lmpSubversion: 0x8821),
        .init(id: 13, chip: "RTL8822C", lmpSubversion: 0x8822), .init(id: 14, chip: "RTL8761B", lmpSubversion: 0x8761),
        .init(id: 18, chip: "RTL8852A", lmpSubversion: 0x8852), .init(id: 20, chip: "RTL8852B", lmpSubversion: 0x8852),
        .init(id: 25, chip: "RTL8852C", lmpSubversion: 0x8852), .init(id: 36, chip: "RTL8851B", lmpSubversion: 0x8851),
        .init(id: 44, chip: "RTL8922A", lmpSubversion: 0x8922), .init(id: 47, chip: "RTL8852BT", lmpSubversion: 0x8852),
        .init(id: 51, chip: "RTL8761C", lmpSubversion: 0x8761),
    ]

    package static func withID(_ id: UInt8) -> RealtekProject? { known.first { $0.id == id } }
}

extension String {
    func replacingSuffix(_ suffix: String, with replacement: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) + replacement : self
    }
}
