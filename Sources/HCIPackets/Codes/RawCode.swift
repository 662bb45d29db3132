/// A code that keeps any raw value, known to this stack or not (`init(rawValue:)` never fails), so a peer's
/// reserved or newer value is shown as it is rather than refused: status and error codes, opcodes, AD types,
/// company identifiers, version numbers.
public protocol RawCode: RawRepresentable {
    init(rawValue: RawValue)
}

extension RawCode {
    /// Wraps any value; the same as `init(rawValue:)`.
    public init(_ rawValue: RawValue) {
        self.init(rawValue: rawValue)
    }
}
