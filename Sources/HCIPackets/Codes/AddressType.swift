// The LE address type.

/// The type of an LE device address, as HCI LE commands and events carry it:
/// `Own_Address_Type`, `Peer_Address_Type`, `Advertiser_Address_Type`, …
/// (Core v5.4 Vol 4 Part E §7.8, e.g. §7.8.5, §7.8.12, §7.7.65.10).
///
/// In events, 0x02 and 0x03 mean the controller resolved a resolvable private
/// address to a public or a random (static) identity address.
public enum AddressType: UInt8, Sendable, Codable, CustomStringConvertible, Hashable, CaseIterable {
    /// Public Device Address (0x00).
    case `public` = 0
    /// Random Device Address (0x01).
    case random = 1
    /// Public Identity Address (0x02): resolved from an RPA to a public identity.
    case publicIdentity = 2
    /// Random (static) Identity Address (0x03): resolved from an RPA to a static identity.
    case randomIdentity = 3

    /// "public", "random", "public identity" or "random identity".
    public var description: String {
        switch self {
        case .public: "public"
        case .random: "random"
        case .publicIdentity: "public identity"
        case .randomIdentity: "random identity"
        }
    }

    /// Whether the address of this type is random (including a random identity).
    public var isRandom: Bool { self == .random || self == .randomIdentity }
}
