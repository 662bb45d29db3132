import HCIPackets

/// What the quirk stage of opening a `usb:` controller found and did, for `hil info` (and `--json`), the
/// timeline and the doctor: btusb's flags for its USB ID (`BTUSBQuirkTable`), whether a CSR-ID controller is
/// a clone (`FakeCSRCheck`), and the address the host uses on the air instead of a public one it cannot
/// trust (`SharedPublicAddresses`, `StableStaticAddress`).
package struct ControllerQuirks: Sendable, Equatable, Codable {
    /// `0a12:0001`.
    package var usbID: String
    /// btusb's flags for the USB ID (`BTUSB_CSR`, …), each with what hil does for it.
    package var btusb: [Flag]
    /// Why a controller with CSR's USB ID is a clone (btusb's `btusb_setup_csr`); nil when it is not or has no CSR ID.
    package var clone: String?
    /// What Read BD_ADDR reported.
    package var publicAddress: String
    /// Why that address cannot be used; nil when it can.
    package var publicAddressProblem: String?
    /// The random static address used instead (LE Set Random Address, own address type random); nil: the public one.
    package var staticRandomAddress: String?
    /// What it is derived from (`0a12:0001 serial:…` or `… location:1-1.4`).
    package var derivedFrom: String?

    package struct Flag: Sendable, Equatable, Codable {
        package var flag: String
        package var applied: Bool
        package var effect: String
    }

    /// The address the host uses on the air.
    package var addressUsed: String { staticRandomAddress ?? publicAddress }

    /// Whether there is anything to say: a btusb flag, a clone, or a replaced address.
    package var isNoteworthy: Bool { !btusb.isEmpty || clone != nil || staticRandomAddress != nil }

    /// Lines for a person, none when there is nothing to say.
    package var lines: [String] {
        var lines = btusb.map { "btusb \($0.flag) for \(usbID): \($0.effect)" }
        if let clone { lines.append("CSR clone (btusb_setup_csr): \(clone)") }
        if let problem = publicAddressProblem, let random = staticRandomAddress {
            lines.append("public address \(publicAddress) is \(problem): using random static address \(random) instead, derived from \(derivedFrom ?? "the dongle")")
        }
        return lines
    }
}
