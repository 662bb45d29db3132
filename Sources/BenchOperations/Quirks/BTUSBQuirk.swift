/// A flag Linux's btusb attaches to a USB ID in its `quirks_table` (named `blacklist_table` before Linux 6.1;
/// drivers/bluetooth/btusb.c), and what it means to `hil`'s `usb:` host, which drives LE only: commands on
/// endpoint 0, events and ACL data on the interrupt and bulk endpoints, never the isochronous interface.
package enum BTUSBQuirk: String, Sendable, Codable, CaseIterable {
    /// `BTUSB_CSR`: a CSR BlueCore ID, also worn by many clones; btusb's `btusb_setup_csr` tells a clone by
    /// its Read Local Version (`FakeCSRCheck`) and gives it HCI quirks.
    case csr = "BTUSB_CSR"
    /// `BTUSB_IGNORE`: btusb does not bind the device at all (a BCM2033 or an Atheros AR3011 still without the
    /// firmware another driver loads into it): it is not an HCI controller until then.
    case ignore = "BTUSB_IGNORE"
    /// `BTUSB_BROKEN_ISOC`: btusb does not use the isochronous interface (SCO audio).
    case brokenIsochronous = "BTUSB_BROKEN_ISOC"
    /// `BTUSB_WRONG_SCO_MTU`: btusb corrects the SCO MTU the controller reports (Read Buffer Size).
    case wrongSCOMTU = "BTUSB_WRONG_SCO_MTU"

    /// Whether `hil` changes what it does for a device with this flag.
    package var applied: Bool {
        switch self {
        case .csr, .ignore: true
        case .brokenIsochronous, .wrongSCOMTU: false
        }
    }

    /// What `hil` does for it, or why nothing: one line for `hil adapters`, `hil info` and docs/lab.md.
    package var effect: String {
        switch self {
        case .csr:
            "applied: the fake-CSR check of btusb_setup_csr runs at open; a clone's public address is checked against the known duplicates "
                + "and replaced by a stable random static address (the HCI quirks btusb sets for clones — broken stored link key, "
                + "filter clear all, erroneous data reporting — concern BR/EDR commands hil never sends)"
        case .ignore:
            "applied: not opened — btusb ignores it too; it is no HCI controller until its firmware is loaded by another driver"
        case .brokenIsochronous:
            "known, irrelevant to LE: hil never drives the isochronous (SCO) interface"
        case .wrongSCOMTU:
            "known, irrelevant to LE: the SCO MTU is unused; hil reads LE buffer sizes (LE Read Buffer Size)"
        }
    }
}
