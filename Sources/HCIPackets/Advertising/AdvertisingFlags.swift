// The Flags AD type's bits.

/// The bits of the Flags AD structure (AD type 0x01).
///
/// Core Specification Supplement Part A §1.3; the discoverable modes are those
/// of Core v5.4 Vol 3 Part C §9.2.
public struct AdvertisingFlags: OptionSet, Hashable, Sendable, Codable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Bit 0: LE Limited Discoverable Mode.
    public static let leLimitedDiscoverable = AdvertisingFlags(rawValue: 1 << 0)
    /// Bit 1: LE General Discoverable Mode.
    public static let leGeneralDiscoverable = AdvertisingFlags(rawValue: 1 << 1)
    /// Bit 2: BR/EDR Not Supported.
    public static let brEdrNotSupported = AdvertisingFlags(rawValue: 1 << 2)
    /// Bit 3: Simultaneous LE and BR/EDR to Same Device Capable (Controller).
    public static let simultaneousLEAndBREDRController = AdvertisingFlags(rawValue: 1 << 3)
    /// Bit 4: "Previously Used" in current CSS; it was Simultaneous LE and
    /// BR/EDR to Same Device Capable (Host).
    public static let simultaneousLEAndBREDRHost = AdvertisingFlags(rawValue: 1 << 4)

    /// The usual flags of an LE-only peripheral: general discoverable, BR/EDR not supported (0x06).
    public static let leGeneralDiscoverableOnly: AdvertisingFlags = [.leGeneralDiscoverable, .brEdrNotSupported]

    /// Names of the set bits, lowest first; unnamed bits as "bit N".
    public var names: [String] {
        (0..<8).compactMap { bit -> String? in
            guard rawValue & (1 << bit) != 0 else { return nil }
            switch bit {
            case 0: return "LE Limited Discoverable Mode"
            case 1: return "LE General Discoverable Mode"
            case 2: return "BR/EDR Not Supported"
            case 3: return "Simultaneous LE and BR/EDR (Controller)"
            case 4: return "Simultaneous LE and BR/EDR (Host)"
            default: return "bit \(bit)"
            }
        }
    }
}
