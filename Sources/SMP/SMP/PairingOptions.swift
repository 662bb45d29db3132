// What our side of a pairing offers and answers.

/// Our side of a pairing: what we put in Pairing Request/Response, and how we answer the method's
/// questions (the passkey to enter or display, whether a compared number matches) without a person.
public struct PairingOptions: Sendable, Hashable {
    public var ioCapability: IOCapability
    /// Ask for the keys to be stored (Bonding_Flags).
    public var bonding: Bool
    /// Ask for MITM protection: an authenticated method, or the pairing fails with Authentication Requirements.
    public var mitm: Bool
    /// Offer LE Secure Connections; with `secureConnectionsOnly`, refuse legacy pairing.
    public var secureConnections: Bool
    public var secureConnectionsOnly: Bool
    /// The six-digit passkey we display or enter; a displaying side draws a random one when nil.
    public var passkey: UInt32?
    /// The answer to Numeric Comparison: whether the numbers match.
    public var confirmsNumericComparison: Bool
    /// A legacy OOB temporary key (16 octets, most significant first), when one came out of band.
    public var outOfBandKey: [UInt8]?
    /// Maximum Encryption Key Size we accept (7–16).
    public var maxKeySize: UInt8
    /// The smallest key size we accept from the peer.
    public var minKeySize: UInt8
    /// Keys we ask the peer to distribute, and keys we offer (the pairing uses the intersection).
    public var keys: KeyDistribution
    /// Fail every Pairing Request with this reason (a device that refuses to pair).
    public var rejectsWith: PairingFailureReason?

    public init(ioCapability: IOCapability = .noInputNoOutput, bonding: Bool = true, mitm: Bool = false,
                secureConnections: Bool = true, secureConnectionsOnly: Bool = false, passkey: UInt32? = nil,
                confirmsNumericComparison: Bool = true, outOfBandKey: [UInt8]? = nil, maxKeySize: UInt8 = 16,
                minKeySize: UInt8 = 7, keys: KeyDistribution = [.encryptionKey, .identityKey],
                rejectsWith: PairingFailureReason? = nil) {
        self.ioCapability = ioCapability
        self.bonding = bonding
        self.mitm = mitm
        self.secureConnections = secureConnections
        self.secureConnectionsOnly = secureConnectionsOnly
        self.passkey = passkey
        self.confirmsNumericComparison = confirmsNumericComparison
        self.outOfBandKey = outOfBandKey
        self.maxKeySize = maxKeySize
        self.minKeySize = minKeySize
        self.keys = keys
        self.rejectsWith = rejectsWith
    }

    /// The options that lead to `method` when the peer can do it: the IO capability, MITM and OOB it needs.
    /// With `passkey`, a side that `displays` shows it (DisplayOnly), otherwise enters it (KeyboardOnly).
    public init(method: String, passkey: UInt32? = nil, displays: Bool = false, confirm: Bool = true, legacy: Bool = false) throws(SecurityError) {
        switch method {
        case "just-works": self.init(ioCapability: .noInputNoOutput)
        case "passkey": self.init(ioCapability: displays ? .displayOnly : .keyboardOnly, mitm: true, passkey: passkey)
        case "numeric-comparison": self.init(ioCapability: .displayYesNo, mitm: true, confirmsNumericComparison: confirm)
        case "oob": throw .unsupported("OOB needs a key: give outOfBandKey")
        default: throw .unsupported("unknown pairing method \"\(method)\" (just-works, passkey, numeric-comparison)")
        }
        if legacy { secureConnections = false }
    }

    /// The Pairing Request/Response features these options give, for the given role.
    package func features(asInitiator: Bool) -> PairingFeatures {
        var requirements: AuthenticationRequirements = []
        if bonding { requirements.insert(.bonding) }
        if mitm { requirements.insert(.mitm) }
        if secureConnections { requirements.formUnion([.secureConnections, .ct2]) }
        let distributed: KeyDistribution = bonding ? keys.intersection([.encryptionKey, .identityKey, .signingKey]) : []
        return PairingFeatures(ioCapability: ioCapability, oobDataPresent: outOfBandKey != nil, authRequirements: requirements,
                               maxKeySize: maxKeySize, initiatorKeys: distributed, responderKeys: distributed)
    }
}
