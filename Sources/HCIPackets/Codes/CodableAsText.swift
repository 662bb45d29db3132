/// A value that JSON (records, rigs, `--json` output) carries as its text form: encoded as `description`,
/// decoded through `init?(_:)`, text that does not parse being a data-corrupted error naming `textKind`.
public protocol CodableAsText: Codable, CustomStringConvertible {
    /// Parses the text form; nil for anything else.
    init?(_ text: String)
    /// What the text should have been, for the decoding error: "a Bluetooth UUID".
    static var textKind: String { get }
}

extension CodableAsText {
    /// Encodes as `description`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Decodes any text `init?(_:)` accepts; other text is a data-corrupted error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Self(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Not \(Self.textKind): \(text.debugDescription)")
        }
        self = value
    }
}
