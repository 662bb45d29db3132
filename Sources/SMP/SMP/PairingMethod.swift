// How the two devices authenticate a pairing.

/// The pairing method the two Pairing Request/Response PDUs select (Core v5.4 Vol 3 Part H §2.3.5.1).
public enum PairingMethod: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Just Works: no authentication (an unauthenticated key).
    case justWorks
    /// Passkey Entry: one side displays a six-digit passkey the other enters, or both enter one.
    case passkeyEntry(PasskeyRoles)
    /// Numeric Comparison (Secure Connections only): both display a six-digit number and the user confirms.
    case numericComparison
    /// Out of band: the TK (legacy) came through another channel.
    case outOfBand

    /// Who displays and who enters the passkey.
    public enum PasskeyRoles: String, Sendable, Hashable, Codable {
        case initiatorDisplays, responderDisplays, bothInput
    }

    /// Whether the method protects against a man in the middle (the key is authenticated).
    public var isAuthenticated: Bool { self != .justWorks }

    /// The names the command line and results use: "just-works", "passkey", "numeric-comparison", "oob".
    public var name: String {
        switch self {
        case .justWorks: "just-works"
        case .passkeyEntry: "passkey"
        case .numericComparison: "numeric-comparison"
        case .outOfBand: "oob"
        }
    }

    public var description: String {
        switch self {
        case .justWorks: "Just Works"
        case .passkeyEntry(.initiatorDisplays): "Passkey Entry (initiator displays)"
        case .passkeyEntry(.responderDisplays): "Passkey Entry (responder displays)"
        case .passkeyEntry(.bothInput): "Passkey Entry (both enter)"
        case .numericComparison: "Numeric Comparison"
        case .outOfBand: "Out of Band"
        }
    }

    /// Selects the method from both sides' features (§2.3.5.1, Tables 2.6–2.8): OOB when the flags say
    /// so (both in legacy pairing, either in Secure Connections), Just Works when neither side asks for
    /// MITM protection, otherwise the IO capability mapping.
    public static func select(initiator: PairingFeatures, responder: PairingFeatures, secureConnections: Bool) -> PairingMethod {
        let oob = secureConnections ? (initiator.oobDataPresent || responder.oobDataPresent)
                                    : (initiator.oobDataPresent && responder.oobDataPresent)
        if oob { return .outOfBand }
        let mitm = initiator.authRequirements.contains(.mitm) || responder.authRequirements.contains(.mitm)
        guard mitm else { return .justWorks }
        return mapping(initiator: initiator.ioCapability, responder: responder.ioCapability, secureConnections: secureConnections)
    }

    /// Table 2.8: the method for each pair of IO capabilities.
    static func mapping(initiator: IOCapability, responder: IOCapability, secureConnections: Bool) -> PairingMethod {
        let comparisonOr: (PairingMethod) -> PairingMethod = { secureConnections ? .numericComparison : $0 }
        switch (responder, initiator) {
        case (.noInputNoOutput, _), (_, .noInputNoOutput): return .justWorks
        case (.displayOnly, .displayOnly), (.displayOnly, .displayYesNo), (.displayYesNo, .displayOnly): return .justWorks
        case (.displayOnly, .keyboardOnly), (.displayOnly, .keyboardDisplay), (.displayYesNo, .keyboardOnly):
            return .passkeyEntry(.responderDisplays)
        case (.displayYesNo, .displayYesNo): return comparisonOr(.justWorks)
        case (.displayYesNo, .keyboardDisplay): return comparisonOr(.passkeyEntry(.responderDisplays))
        case (.keyboardOnly, .displayOnly), (.keyboardOnly, .displayYesNo), (.keyboardOnly, .keyboardDisplay),
             (.keyboardDisplay, .displayOnly):
            return .passkeyEntry(.initiatorDisplays)
        case (.keyboardOnly, .keyboardOnly): return .passkeyEntry(.bothInput)
        case (.keyboardDisplay, .displayYesNo), (.keyboardDisplay, .keyboardDisplay): return comparisonOr(.passkeyEntry(.initiatorDisplays))
        case (.keyboardDisplay, .keyboardOnly): return .passkeyEntry(.responderDisplays)
        }
    }
}
