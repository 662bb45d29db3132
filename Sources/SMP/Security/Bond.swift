import HCIPackets
// What two devices keep after bonding.

/// A bond with one peer (Core v5.4 Vol 3 Part H §2.4.1, Vol 3 Part C §9.4.4): its identity, the keys both
/// sides distributed and the security they give. Keys are in HCI order (least significant octet first).
public struct Bond: Sendable, Hashable, Codable {
    /// The peer's identity address: the one it distributed (Identity Address Information), else the
    /// address it connected with.
    public var peerAddress: BDAddress
    /// `.public` or `.random` (a random static identity address).
    public var peerAddressType: AddressType
    /// The peer's Identity Resolving Key, when it distributed one: it resolves the peer's private addresses.
    public var peerIdentityResolvingKey: [UInt8]?
    /// The key our side uses as central (LE Enable Encryption): the Secure Connections LTK, or the LTK the
    /// peer distributed in legacy pairing.
    public var longTermKey: LongTermKey?
    /// The key our side answers an LTK request with as peripheral: the Secure Connections LTK, or the
    /// LTK we distributed in legacy pairing.
    public var localLongTermKey: LongTermKey?
    /// The peer's Connection Signature Resolving Key.
    public var peerSignatureKey: [UInt8]?
    /// The encryption key size in octets (7–16).
    public var keySize: UInt8
    /// Whether the keys are authenticated (MITM protection: Passkey Entry, Numeric Comparison, OOB).
    public var authenticated: Bool
    /// Whether LE Secure Connections made the keys.
    public var secureConnections: Bool
    /// The method the pairing used ("just-works", "passkey", "numeric-comparison", "oob").
    public var method: String

    public init(peerAddress: BDAddress, peerAddressType: AddressType, peerIdentityResolvingKey: [UInt8]? = nil,
                longTermKey: LongTermKey?, localLongTermKey: LongTermKey?, peerSignatureKey: [UInt8]? = nil,
                keySize: UInt8, authenticated: Bool, secureConnections: Bool, method: String) {
        self.peerAddress = peerAddress
        self.peerAddressType = peerAddressType
        self.peerIdentityResolvingKey = peerIdentityResolvingKey
        self.longTermKey = longTermKey
        self.localLongTermKey = localLongTermKey
        self.peerSignatureKey = peerSignatureKey
        self.keySize = keySize
        self.authenticated = authenticated
        self.secureConnections = secureConnections
        self.method = method
    }

    /// The security an encrypted link gets from this bond's keys.
    public var security: LinkSecurity {
        LinkSecurity(encrypted: true, authenticated: authenticated, secureConnections: secureConnections, keySize: keySize)
    }

    /// Whether this bond is the peer's at `address`: its identity address, or a resolvable private address
    /// its IRK resolves (Vol 3 Part C §10.8.2.3).
    public func matches(address: BDAddress, type: AddressType) -> Bool {
        if address == peerAddress && type.isRandom == peerAddressType.isRandom { return true }
        guard type.isRandom, address.isResolvablePrivate, let irk = peerIdentityResolvingKey else { return false }
        return ResolvablePrivateAddress.resolves(address, with: irk)
    }

    enum CodingKeys: String, CodingKey {
        case peerAddress = "peer", peerAddressType = "peerType", peerIdentityResolvingKey = "peerIRK", longTermKey = "ltk",
             localLongTermKey = "localLTK", peerSignatureKey = "peerCSRK", keySize, authenticated, secureConnections, method
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard let address = BDAddress(try c.decode(String.self, forKey: .peerAddress)) else {
            throw DecodingError.dataCorruptedError(forKey: .peerAddress, in: c, debugDescription: "not a Bluetooth device address")
        }
        peerAddress = address
        peerAddressType = try c.decode(String.self, forKey: .peerAddressType) == "random" ? .random : .public
        peerIdentityResolvingKey = try c.decodeIfPresent(HexOctets.self, forKey: .peerIdentityResolvingKey)?
            .octets(count: 16, field: .peerIdentityResolvingKey, in: c)
        longTermKey = try c.decodeIfPresent(LongTermKey.self, forKey: .longTermKey)
        localLongTermKey = try c.decodeIfPresent(LongTermKey.self, forKey: .localLongTermKey)
        peerSignatureKey = try c.decodeIfPresent(HexOctets.self, forKey: .peerSignatureKey)?.octets(count: 16, field: .peerSignatureKey, in: c)
        keySize = try c.decode(UInt8.self, forKey: .keySize)
        guard (7...16).contains(keySize) else {
            throw DecodingError.dataCorruptedError(forKey: .keySize, in: c, debugDescription: "key size \(keySize) is outside 7–16")
        }
        authenticated = try c.decode(Bool.self, forKey: .authenticated)
        secureConnections = try c.decode(Bool.self, forKey: .secureConnections)
        method = try c.decode(String.self, forKey: .method)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(peerAddress.description, forKey: .peerAddress)
        try c.encode(peerAddressType.isRandom ? "random" : "public", forKey: .peerAddressType)
        try c.encodeIfPresent(peerIdentityResolvingKey.map(HexOctets.init), forKey: .peerIdentityResolvingKey)
        try c.encodeIfPresent(longTermKey, forKey: .longTermKey)
        try c.encodeIfPresent(localLongTermKey, forKey: .localLongTermKey)
        try c.encodeIfPresent(peerSignatureKey.map(HexOctets.init), forKey: .peerSignatureKey)
        try c.encode(keySize, forKey: .keySize)
        try c.encode(authenticated, forKey: .authenticated)
        try c.encode(secureConnections, forKey: .secureConnections)
        try c.encode(method, forKey: .method)
    }
}

/// The security a link has: what the ATT server checks attribute permissions against (Vol 3 Part C §10.3).
public struct LinkSecurity: Sendable, Hashable, CustomStringConvertible {
    public var encrypted: Bool
    public var authenticated: Bool
    public var secureConnections: Bool
    /// The encryption key size in octets (0 when not encrypted).
    public var keySize: UInt8

    public init(encrypted: Bool = false, authenticated: Bool = false, secureConnections: Bool = false, keySize: UInt8 = 0) {
        self.encrypted = encrypted
        self.authenticated = authenticated
        self.secureConnections = secureConnections
        self.keySize = keySize
    }

    /// "unencrypted", or e.g. "encrypted, authenticated, Secure Connections, 16-octet key".
    public var description: String {
        guard encrypted else { return "unencrypted" }
        var parts = ["encrypted"]
        parts.append(authenticated ? "authenticated" : "unauthenticated")
        if secureConnections { parts.append("Secure Connections") }
        parts.append("\(keySize)-octet key")
        return parts.joined(separator: ", ")
    }

    /// The security mode 1 level (Vol 3 Part C §10.2.1): 1 none, 2 unauthenticated, 3 authenticated,
    /// 4 authenticated LE Secure Connections with a 16-octet key.
    public var level: Int {
        guard encrypted else { return 1 }
        guard authenticated else { return 2 }
        return secureConnections && keySize == 16 ? 4 : 3
    }
}
