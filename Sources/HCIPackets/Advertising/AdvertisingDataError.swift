// Why advertising data did not parse.

/// Advertising data that does not follow the AD structure format of
/// Core v5.4 Vol 3 Part C §11: where (the octet offset of the faulty
/// structure's length octet) and what.
public struct AdvertisingDataError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Offset, in the data given, of the length octet of the faulty structure.
    public let offset: Int
    /// What is wrong, e.g. "length 12 runs past the end (7 octets remain)".
    public let message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    /// "AD structure at offset 3: length 12 runs past the end (7 octets remain)".
    public var description: String {
        "AD structure at offset \(offset): \(message)"
    }
}
