import Foundation
import SMP

/// The security options `pair`, `connect` and `advertise` share: `--method`, `--passkey`, `--confirm`,
/// `--legacy`, `--bonds DIR`.
struct SecurityArguments {
    var method: String
    var passkey: UInt32?
    var confirm: Bool
    var legacy: Bool
    var bonds: BondDirectory

    static let methods = ["auto", "just-works", "passkey", "numeric-comparison"]
    static let usage = """
        security:  --method auto|just-works|passkey|numeric-comparison   (auto: the IO capability tables choose)
                   --passkey NNNNNN   the six digits to enter (or, advertising, to display)
                   --confirm yes|no   the answer to Numeric Comparison (default yes)
                   --legacy           LE legacy pairing only (no Secure Connections)
                   --bonds DIR        the bond store (default $HIL_BONDS, else ~/.local/share/hil/bonds)
        """

    static func parse(_ arguments: inout Arguments) throws(UsageError) -> SecurityArguments {
        let method = try arguments.option("method") ?? "auto"
        guard methods.contains(method) else { throw UsageError("--method '\(method)': one of \(methods.joined(separator: ", "))") }
        var passkey: UInt32?
        if let text = try arguments.option("passkey") {
            guard text.count <= 6, let value = UInt32(text), value <= 999_999 else { throw UsageError("--passkey '\(text)' is not six digits") }
            passkey = value
        }
        let confirmText = try arguments.option("confirm") ?? "yes"
        guard ["yes", "no"].contains(confirmText) else { throw UsageError("--confirm '\(confirmText)': yes or no") }
        let legacy = arguments.flag("legacy")
        let bonds = BondDirectory.resolved(try arguments.option("bonds"))
        if method == "passkey" && passkey == nil { throw UsageError("--method passkey needs --passkey NNNNNN (the digits the accessory displays)") }
        return SecurityArguments(method: method, passkey: passkey, confirm: confirmText == "yes", legacy: legacy, bonds: bonds)
    }

    /// The pairing options for a central (which enters a passkey and confirms numbers).
    func centralOptions() throws(UsageError) -> PairingOptions {
        if method == "auto" {
            return PairingOptions(ioCapability: passkey != nil ? .keyboardDisplay : .displayYesNo, mitm: false,
                                  secureConnections: !legacy, passkey: passkey, confirmsNumericComparison: confirm)
        }
        do {
            return try PairingOptions(method: method, passkey: passkey, displays: false, confirm: confirm, legacy: legacy)
        } catch {
            throw UsageError(error.description)
        }
    }

    /// Opens the bond file of `moniker` (created with a fresh identity when it is new).
    func bondFile(for moniker: String) async throws(SecurityError) -> AdapterBondFile {
        try await bonds.file(for: moniker)
    }
}

/// How a pairing prompt reads on the terminal.
extension PairingPrompt {
    var line: String {
        switch self {
        case .displayPasskey(let passkey): "passkey    \(String(format: "%06u", passkey)) (displayed here: enter it on the peer)"
        case .enteredPasskey(let passkey): "passkey    \(String(format: "%06u", passkey)) entered"
        case .compareNumber(let number, let confirmed): "compare    \(String(format: "%06u", number)) — \(confirmed ? "confirmed" : "rejected")"
        }
    }
}
