// The security a link currently has, as the ATT server checks it.

/// What the link to the client has achieved, checked against attribute
/// permissions (Core v5.4 Vol 3 Part C §10.3, Vol 3 Part F §3.2.5).
/// The owner of the connection updates `ATTServer.security` after pairing or encryption.
public struct ATTSecurity: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The link is encrypted.
    public static let encrypted = ATTSecurity(rawValue: 0x01)
    /// The link is encrypted with an authenticated (MITM-protected) key.
    public static let authenticated = ATTSecurity(rawValue: 0x02)
    /// The application has authorized this client.
    public static let authorized = ATTSecurity(rawValue: 0x04)
    /// The link is encrypted with a 16-octet key.
    public static let fullKeySize = ATTSecurity(rawValue: 0x08)
}
