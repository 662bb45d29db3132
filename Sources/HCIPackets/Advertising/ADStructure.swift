// One AD structure: length, AD type, data.

/// One AD structure of advertising, scan response or EIR data.
///
/// Core v5.4 Vol 3 Part C §11 ("Advertising and Scan Response Data Format"):
/// each structure is a Length octet, then Length octets of which the first is
/// the AD type and the rest the AD data. The length octet is not stored: it
/// follows from `data`.
public struct ADStructure: Hashable, Sendable, Codable {
    /// What the data means.
    public let type: ADType
    /// The AD data, without the length and type octets.
    public let data: [UInt8]

    /// The most AD data one structure can hold: the length octet counts the
    /// type octet too, so 255 − 1.
    public static let maximumDataCount = 254

    public init(type: ADType, data: [UInt8]) {
        self.type = type
        self.data = data
    }

    /// The structure with `data` given as any collection of octets.
    public init(_ type: ADType, _ data: some Collection<UInt8>) {
        self.init(type: type, data: Array(data))
    }

    /// Whether `data` fits in one structure (at most 254 octets).
    public var isEncodable: Bool { data.count <= Self.maximumDataCount }

    /// Length octet, type octet, data. Data past 254 octets cannot be
    /// expressed in one structure and is cut off; check `isEncodable`.
    public func encoded() -> [UInt8] {
        let payload = data.prefix(Self.maximumDataCount)
        return [UInt8(payload.count + 1), type.rawValue] + payload
    }
}
