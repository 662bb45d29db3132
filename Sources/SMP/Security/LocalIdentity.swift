// Our identity on an adapter.
import BluetoothCrypto
import HCIPackets

/// Our identity address and Identity Resolving Key (Core v5.4 Vol 3 Part H §2.4.2.1), distributed when
/// the peer asks for IdKey. Written in bond files as `{"address": "C3:…", "type": "random", "irk": "…"}`.
public struct LocalIdentity: Sendable, Hashable, Codable {
    public var address: BDAddress
    /// `.public`, or `.random` for a random static address.
    public var addressType: AddressType
    /// Our IRK, HCI order.
    public var identityResolvingKey: [UInt8]

    public init(address: BDAddress, addressType: AddressType, identityResolvingKey: [UInt8]) {
        self.address = address
        self.addressType = addressType
        self.identityResolvingKey = identityResolvingKey
    }

    /// A fresh identity: a random static address (the two most significant bits 11, the rest neither all
    /// zeros nor all ones, Core v5.4 Vol 6 Part B §1.3.2.1) and a random IRK.
    public static func randomStatic() throws(SecurityError) -> LocalIdentity {
        do {
            while true {
                var bytes = try SecureRandom.bytes(6)
                bytes[0] |= 0xC0
                if let address = BDAddress(bigEndian: bytes), address.hasValidRandomPart {
                    return LocalIdentity(address: address, addressType: .random, identityResolvingKey: try SecureRandom.bytes(16))
                }
            }
        } catch {
            throw .crypto(error.description)
        }
    }

    enum CodingKeys: String, CodingKey { case address, type, irk }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard let address = BDAddress(try c.decode(String.self, forKey: .address)) else {
            throw DecodingError.dataCorruptedError(forKey: .address, in: c, debugDescription: "not a Bluetooth device address")
        }
        let type = try c.decode(String.self, forKey: .type)
        guard type == "public" || (type == "random" && address.isStaticRandom) else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "\"\(type)\" with \(address): public, or random with a static random address")
        }
        self.address = address
        addressType = type == "random" ? .random : .public
        identityResolvingKey = try c.decode(HexOctets.self, forKey: .irk).octets(count: 16, field: .irk, in: c)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(address.description, forKey: .address)
        try c.encode(addressType.isRandom ? "random" : "public", forKey: .type)
        try c.encode(HexOctets(identityResolvingKey), forKey: .irk)
    }
}
