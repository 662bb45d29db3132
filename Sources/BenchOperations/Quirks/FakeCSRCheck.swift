import HCIPackets

/// Whether a controller behind CSR's USB ID 0a12:0001 is a clone, as Linux's btusb decides it in
/// `btusb_setup_csr` (drivers/bluetooth/btusb.c) from Read Local Version (Core v5.4 Vol 4 Part E §7.4.1) and
/// the device's bcdDevice: a real CSR reports manufacturer 10 (Cambridge Silicon Radio) with the firmware
/// build in both HCI revision and LMP subversion, and a build no newer than the Bluetooth version it claims.
package enum FakeCSRCheck {
    /// Company identifier 10 (0x000A): Cambridge Silicon Radio.
    package static let csrManufacturer: UInt16 = 0x000A

    /// The newest real CSR firmware build of each HCI version (btusb's "known legit CSR firmware build
    /// numbers"): a build up to `lastBuild` that claims an HCI version above `version` is a clone.
    static let builds: [(lastBuild: UInt16, version: UInt8)] = [
        (0x034E, 1), // Bluetooth 1.1
        (0x0529, 2), // 1.2
        (0x0C5C, 3), // 2.0
        (0x1899, 4), // 2.1
        (0x22BB, 6), // 4.0
    ]

    /// Why the controller is a clone, or nil for a real CSR. `bcdDevice` is the USB device release, when known
    /// (btusb's last rule: 0x0134 with LMP subversion 0x0C5C and HCI version 2.0 is a clone beating the others).
    package static func cloneReason(manufacturer: UInt16, hciVersion: UInt8, hciRevision: UInt16, lmpSubversion: UInt16,
                                    bcdDevice: UInt16? = nil) -> String? {
        if manufacturer != csrManufacturer {
            return "Read Local Version names manufacturer \(manufacturer), not Cambridge Silicon Radio (10)"
        }
        if hciRevision != lmpSubversion {
            return "HCI revision 0x\(hex4(hciRevision)) differs from LMP subversion 0x\(hex4(lmpSubversion)), which a CSR firmware build keeps equal"
        }
        if let rule = builds.first(where: { lmpSubversion <= $0.lastBuild }), hciVersion > rule.version {
            return "firmware build 0x\(hex4(lmpSubversion)) predates the HCI version \(hciVersion) it claims"
        }
        if bcdDevice == 0x0134 && lmpSubversion == 0x0C5C && hciVersion == 3 {
            return "bcdDevice 0x0134 with build 0x0C5C and HCI version 2.0, a known clone"
        }
        return nil
    }
}
