/// Adapters that need firmware from the host: detected by USB ID and by what the controller reports
/// about itself. With the kernel driver detached (`usb:`), btusb loads nothing: `usb:` loads the firmware
/// itself at every open (`RealtekFirmwareLoader`, `IntelFirmwareLoader`).
package enum FirmwareAdvisor {
    package struct Need: Sendable, Hashable {
        /// `Intel`, `Realtek`.
        package var family: String
        /// The chip, when the ID tells it.
        package var chip: String
        /// Files under /lib/firmware the kernel driver loads (globs).
        package var files: [String]
        /// The Debian package that ships them.
        package var package: String
        /// What happens without them.
        package var without: String

        /// Whether a file matching one of `files` is in one of `directories`, listed by `list`.
        package func present(in directories: [String], list: (String) -> [String]) -> Bool {
            files.contains { pattern in
                let prefix = String(pattern.split(separator: "/").last?.split(separator: "*").first ?? "")
                let subdirectory = pattern.split(separator: "/").dropLast().joined(separator: "/")
                return directories.contains { root in list(root + "/" + subdirectory).contains { $0.hasPrefix(prefix) } }
            }
        }
    }

    /// Realtek chip IDs that an unpatched controller reports as its LMP subversion (btrtl's table).
    package static let realtekROMSubversions: [UInt16: String] = [
        0x8703: "RTL8723B/CS", 0x8723: "RTL8723A/B/D", 0x8761: "RTL8761A/B", 0x8821: "RTL8821A/C",
        0x8822: "RTL8822B/C", 0x8852: "RTL8852A/B/C", 0x8851: "RTL8851B",
    ]

    static let intelBootloaderIDs: [UInt16: String] = [
        0x0A2B: "8260/8265", 0x0AAA: "9460/9560", 0x0025: "9260", 0x0026: "AX201", 0x0029: "AX200",
        0x0032: "AX210", 0x0033: "AX211",
    ]

    static let realtekIDs: [UInt32: String] = [
        0x0BDA_8771: "RTL8761B", 0x2357_0604: "RTL8761B (TP-Link UB500)", 0x0B05_190E: "RTL8761B (ASUS USB-BT500)",
        0x0BDA_B85B: "RTL8822B", 0x0BDA_B00C: "RTL8822C", 0x0BDA_8761: "RTL8761A",
    ]

    /// What this USB ID needs, if anything.
    package static func need(vendor: UInt16, product: UInt16) -> Need? {
        if vendor == 0x8087, let chip = intelBootloaderIDs[product] {
            return Need(family: "Intel", chip: chip, files: ["intel/ibt-*.sfi", "intel/ibt-*.ddc"], package: "firmware-iwlwifi",
                        without: "the controller stays in its bootloader and answers almost no HCI command")
        }
        if let chip = realtekIDs[UInt32(vendor) << 16 | UInt32(product)] {
            return Need(family: "Realtek", chip: chip, files: ["rtl_bt/\(chip.prefix(8).lowercased())*_fw.bin", "rtl_bt/\(chip.prefix(8).lowercased())*_config.bin"],
                        package: "firmware-realtek",
                        without: "the controller runs its ROM firmware: older, often without LE features, and with known bugs")
        }
        return nil
    }

    /// What the controller's own report says: a Realtek controller (company 93) whose LMP subversion is a
    /// bare chip ID runs its ROM firmware, so no patch was loaded. Nil when nothing is wrong.
    package static func advice(manufacturer: UInt16, lmpSubversion: UInt16, moniker: String) -> String? {
        if manufacturer == 93, let chip = realtekROMSubversions[lmpSubversion] {
            return "\(moniker): this Realtek \(chip) runs its ROM firmware (LMP subversion 0x\(String(lmpSubversion, radix: 16)) is the bare chip ID): "
                + "no firmware patch was loaded. Open it as usb: (hil loads rtl_bt/ firmware at every open), or install firmware-realtek and re-plug it for hci-socket:N"
        }
        return nil
    }

    /// One line for `hil adapters` and `hil doctor` about an adapter by ID and driver; `firmwarePresent`
    /// says whether its files are in the firmware directories (nil: not looked).
    package static func advice(vendor: UInt16, product: UInt16, driver: String?, firmwarePresent: Bool?) -> String? {
        guard let need = need(vendor: vendor, product: product) else { return nil }
        var text = "\(need.family) \(need.chip) needs firmware from the host (\(need.files.joined(separator: ", "))); without it \(need.without). "
        text += driver == "btusb" ? "btusb loaded it at probe for hci-socket:N; usb: detaches btusb and loads it itself, at every open and after every USB reset"
                                  : "usb: loads it itself, at every open and after every USB reset"
        let states = need.family == "Realtek" ? "ROM or patched firmware" : "its bootloader or operational firmware"
        text += " ('hil info usb:…' says whether it runs \(states) and which file it got)"
        if firmwarePresent == false {
            text += "; the files are missing (looked in \(FirmwareFiles.lookupOrder)), so opening it as usb: fails: install \(need.package)"
        }
        return text
    }
}
