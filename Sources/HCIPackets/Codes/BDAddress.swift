// The 48-bit Bluetooth device address.

/// A 48-bit Bluetooth device address, `BD_ADDR`.
///
/// Core v5.4 Vol 2 Part B §1.2 defines the public address (an IEEE MAC
/// address: company_id and company_assigned parts); Vol 6 Part B §1.3 defines
/// the LE random addresses (static, resolvable private, non-resolvable
/// private), told apart by the two most significant bits. On HCI the address
/// is six octets, least significant first (Vol 4 Part E §5.2); that order is
/// kept in `littleEndianBytes`. Text is most significant first:
/// "00:AA:01:00:00:42".
///
/// Whether an address is public or random is not in the 48 bits: it travels
/// beside it as an `AddressType`.
public struct BDAddress: Hashable, Sendable, CustomStringConvertible, CodableAsText, Comparable {
    /// The six octets in HCI order, least significant first. Always 6 long.
    public let littleEndianBytes: [UInt8]

    /// The address from its six HCI octets, least significant first; nil
    /// unless there are exactly six.
    public init?(littleEndian bytes: some Collection<UInt8>) {
        let array = Array(bytes)
        guard array.count == 6 else { return nil }
        self.littleEndianBytes = array
    }

    /// The address from six octets most significant first (text order); nil
    /// unless there are exactly six.
    public init?(bigEndian bytes: some Collection<UInt8>) {
        let array = Array(bytes)
        guard array.count == 6 else { return nil }
        self.littleEndianBytes = array.reversed()
    }

    /// The address from the low 48 bits of `value` (higher bits are ignored).
    public init(_ value: UInt64) {
        self.littleEndianBytes = (0..<6).map { UInt8(truncatingIfNeeded: value >> UInt64($0 * 8)) }
    }

    /// Parses "00:AA:01:00:00:42": six pairs of hex digits, most significant
    /// first, separated all by ":" or all by "-"; either case. Anything else
    /// (missing or extra pairs, single digits, other characters, mixed
    /// separators) gives nil.
    public init?(_ string: String) {
        let separator: Character
        if string.contains(":") {
            separator = ":"
        } else if string.contains("-") {
            separator = "-"
        } else {
            return nil
        }
        let parts = string.split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count == 6 else { return nil }
        var bigEndian: [UInt8] = []
        bigEndian.reserveCapacity(6)
        for part in parts {
            guard part.count == 2, let value = HexFormat.parse(part) else { return nil }
            bigEndian.append(UInt8(truncatingIfNeeded: value))
        }
        self.littleEndianBytes = bigEndian.reversed()
    }

    /// 00:00:00:00:00:00, which HCI uses for "no address".
    public static let zero = BDAddress(0)

    /// The six octets most significant first (text order).
    public var bigEndianBytes: [UInt8] { littleEndianBytes.reversed() }

    /// The address as a number, most significant octet highest.
    public var value: UInt64 {
        littleEndianBytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << UInt64($1.offset * 8) }
    }

    /// The most significant octet, whose top two bits tell random address
    /// sub-types apart.
    private var mostSignificantByte: UInt8 { littleEndianBytes.last ?? 0 }

    /// Top two bits are 0b11: the form of a static device address
    /// (Vol 6 Part B §1.3.2.1). Meaningful only for a random address.
    public var isStaticRandom: Bool { mostSignificantByte >> 6 == 0b11 }

    /// Top two bits are 0b01: the form of a resolvable private address
    /// (Vol 6 Part B §1.3.2.2). Meaningful only for a random address.
    public var isResolvablePrivate: Bool { mostSignificantByte >> 6 == 0b01 }

    /// Top two bits are 0b00: the form of a non-resolvable private address
    /// (Vol 6 Part B §1.3.2.2). Meaningful only for a random address.
    public var isNonResolvablePrivate: Bool { mostSignificantByte >> 6 == 0b00 }

    /// Whether the random part (all bits but the top two) is neither all zeros
    /// nor all ones, as Vol 6 Part B §1.3.2 requires of random addresses.
    public var hasValidRandomPart: Bool {
        let random = value & 0x3FFF_FFFF_FFFF
        return random != 0 && random != 0x3FFF_FFFF_FFFF
    }

    /// "00:AA:01:00:00:42": most significant first, uppercase.
    public var description: String {
        bigEndianBytes.map { HexFormat.digits($0, width: 2) }.joined(separator: ":")
    }

    public static func < (lhs: BDAddress, rhs: BDAddress) -> Bool {
        lhs.value < rhs.value
    }

    /// Named in the decoding error when a JSON value is not this text form.
    public static let textKind = "a Bluetooth device address"
}
