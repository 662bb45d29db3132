/// What a person on this side would be shown, as a record or a log line says it: the passkey this side
/// displays or entered (Passkey Entry, Core v5.4 Vol 3 Part H §2.3.5.3), or the six-digit value both sides
/// display for Numeric Comparison (§2.3.5.6.2, the g2 function's value mod 10⁶) and whether this side
/// confirmed it.
extension PairingPrompt: CustomStringConvertible {
    public var description: String {
        switch self {
        case .displayPasskey(let passkey): "displays passkey \(Self.sixDigits(passkey))"
        case .enteredPasskey(let passkey): "entered passkey \(Self.sixDigits(passkey))"
        case .compareNumber(let number, let confirmed): "compares \(Self.sixDigits(number)): \(confirmed ? "confirmed" : "rejected")"
        }
    }

    /// A passkey or comparison value as the spec's user interface shows it: six digits, leading zeros kept.
    static func sixDigits(_ value: UInt32) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }
}
