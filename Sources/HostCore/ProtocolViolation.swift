import HCIPackets
// A peer that broke the protocol, with the bytes that broke it.

/// Something a peer sent that the specification does not allow — a truncated or oversized PDU, a
/// response nobody asked for, an MTU below the minimum, handles going backwards, a signaling command that
/// does not decode, an SMP PDU out of order, an ACL packet whose L2CAP length lies — with the octets it
/// sent, so a test record can carry the evidence. The host never traps on one: it records it (see
/// `HCIHost.protocolViolations`), fails what was waiting for it, and goes on.
public struct ProtocolViolation: Error, Hashable, Sendable, CustomStringConvertible {
    /// The layer whose rules were broken.
    public enum Layer: String, Hashable, Sendable {
        /// The controller itself (an event the host's state does not allow, e.g. a second LE Connection
        /// Complete for a handle that is open).
        case hci = "HCI"
        case acl = "ACL"
        case l2cap = "L2CAP"
        case signaling = "L2CAP LE signaling"
        case att = "ATT"
        case smp = "SMP"
    }

    /// The octets shown in `description` (the whole PDU stays in `bytes`).
    public static let shownOctets = 32

    public let layer: Layer
    /// What was wrong, e.g. "Exchange MTU Response with Server Rx MTU 0 (at least 23, Vol 3 Part F §3.4.2.2)".
    public let what: String
    /// The offending PDU as it arrived (the ATT, SMP or signaling PDU; the whole L2CAP frame for L2CAP and ACL;
    /// the event's parameters for HCI).
    public let bytes: [UInt8]

    public init(_ layer: Layer, _ what: String, bytes: [UInt8]) {
        self.layer = layer
        self.what = what
        self.bytes = bytes
    }

    /// The bytes as spaced lowercase hex pairs, e.g. "0b 00 17"; all of them, for a record.
    public var hexBytes: String { Self.spacedHex(bytes) }

    /// "protocol violation: ATT <what> (bytes: 0b 00 …)" — at most `shownOctets` octets, then "…".
    public var description: String {
        let shown = Self.spacedHex(bytes.prefix(Self.shownOctets)) + (bytes.count > Self.shownOctets ? " …" : "")
        return "protocol violation: \(layer.rawValue) \(what) (bytes: \(bytes.isEmpty ? "none" : shown))"
    }

    static func spacedHex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { HexFormat.digits($0, width: 2).lowercased() }.joined(separator: " ")
    }
}
