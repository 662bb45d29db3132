/// Whether a capture keeps the keys that pass through it.
///
/// By default (`redacted`) every secret field `CaptureSecrets` lists — the LTK, IRK and CSRK an SMP pairing
/// distributes, its Confirm, Random and DHKey Check values, the key of HCI LE Enable Encryption and LE Long
/// Term Key Request Reply, LE Encrypt's operands and result — is overwritten with `marker(length:)`, octet for
/// octet, before the record is written: the packet keeps its length and still decodes in Wireshark, tshark and
/// btmon, but the capture cannot decrypt the link or impersonate either side. `kept` (`--capture-keys`,
/// `HIL_CAPTURE_KEYS=1`) writes them as they passed, for a lab whose Wireshark decrypts the link.
public enum CaptureKeys: Sendable, Hashable {
    /// Secret fields are replaced by the marker.
    case redacted
    /// Every octet is written as it passed.
    case kept

    /// The octets that stand in for a secret field: ASCII `REDACTED` repeated (and cut) to `length`, so that
    /// Wireshark's byte view reads "REDACTEDREDACTED" where a 16-octet key was.
    public static func marker(length: Int) -> [UInt8] {
        (0..<max(length, 0)).map(markerOctet)
    }

    /// The marker's octet at `position` within a field.
    static func markerOctet(_ position: Int) -> UInt8 {
        markerPattern[position % markerPattern.count]
    }

    private static let markerPattern: [UInt8] = Array("REDACTED".utf8)
}
