// Attribute permissions.

/// What a client must have to read or write an attribute (Core v5.4 Vol 3 Part F §3.2.5,
/// and Vol 3 Part C §10.3 for the security requirements).
///
/// Any read flag makes the attribute readable; `readEncrypted`, `readAuthenticated`
/// and `readAuthorized` add a requirement the server checks against its
/// `ATTServer.security`, answering Insufficient Encryption (0x0F), Insufficient
/// Authentication (0x05) or Insufficient Authorization (0x08). The same holds for writes.
public struct GATTPermissions: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let read = GATTPermissions(rawValue: 0x0001)
    public static let readEncrypted = GATTPermissions(rawValue: 0x0002)
    public static let readAuthenticated = GATTPermissions(rawValue: 0x0004)
    public static let readAuthorized = GATTPermissions(rawValue: 0x0008)
    public static let write = GATTPermissions(rawValue: 0x0010)
    public static let writeEncrypted = GATTPermissions(rawValue: 0x0020)
    public static let writeAuthenticated = GATTPermissions(rawValue: 0x0040)
    public static let writeAuthorized = GATTPermissions(rawValue: 0x0080)
    /// Reads and writes that need encryption need a 16-octet key: a shorter one gets Encryption Key Size
    /// Too Short (0x0C).
    public static let fullKeySize = GATTPermissions(rawValue: 0x0100)

    static let readSecured: GATTPermissions = [.readEncrypted, .readAuthenticated]
    static let writeSecured: GATTPermissions = [.writeEncrypted, .writeAuthenticated]

    static let anyRead: GATTPermissions = [.read, .readEncrypted, .readAuthenticated, .readAuthorized]
    static let anyWrite: GATTPermissions = [.write, .writeEncrypted, .writeAuthenticated, .writeAuthorized]

    /// Whether any read flag is set.
    public var isReadable: Bool { !isDisjoint(with: Self.anyRead) }
    /// Whether any write flag is set.
    public var isWritable: Bool { !isDisjoint(with: Self.anyWrite) }

    /// The permissions a characteristic value gets from its properties: readable
    /// with `.read`, writable with `.write`, `.writeWithoutResponse` or signed writes.
    public init(properties: GATTCharacteristicProperties) {
        var permissions: GATTPermissions = []
        if properties.contains(.read) { permissions.insert(.read) }
        if !properties.isDisjoint(with: [.write, .writeWithoutResponse, .authenticatedSignedWrites]) {
            permissions.insert(.write)
        }
        self = permissions
    }

    private static let names: [(GATTPermissions, String)] = [
        (.read, "read"), (.readEncrypted, "readEncrypted"), (.readAuthenticated, "readAuthenticated"),
        (.readAuthorized, "readAuthorized"), (.write, "write"), (.writeEncrypted, "writeEncrypted"),
        (.writeAuthenticated, "writeAuthenticated"), (.writeAuthorized, "writeAuthorized"), (.fullKeySize, "fullKeySize"),
    ]

    public var description: String {
        let parts = Self.names.filter { contains($0.0) }.map(\.1)
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }
}
