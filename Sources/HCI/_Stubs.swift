// TEMPORARY stubs until the codes land. Delete this file.
public struct HCIStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible, Codable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public var name: String { "x" }
    public var description: String { "0x\(hex2(rawValue)) \(name)" }
    public var isSuccess: Bool { rawValue == 0 }
    public static let success = HCIStatus(rawValue: 0)
    public static let unknownHCICommand = HCIStatus(rawValue: 1)
    public static let unknownConnectionIdentifier = HCIStatus(rawValue: 2)
    public static let connectionTimeout = HCIStatus(rawValue: 8)
    public static let commandDisallowed = HCIStatus(rawValue: 0x0C)
    public static let remoteUserTerminatedConnection = HCIStatus(rawValue: 0x13)
    public static let connectionTerminatedByLocalHost = HCIStatus(rawValue: 0x16)
}
public struct CompanyIdentifier: RawRepresentable, Hashable, Sendable, CustomStringConvertible, Codable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public var name: String? { nil }
    public var description: String { "x" }
}
public struct BluetoothVersion: RawRepresentable, Hashable, Sendable, CustomStringConvertible, Codable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public var name: String { "x" }
    public var description: String { name }
}
public struct LEFeatures: OptionSet, Hashable, Sendable, Codable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public static let leExtendedAdvertising = LEFeatures(rawValue: 1 << 12)
    public var names: [String] { [] }
}
public struct BDAddress: Hashable, Sendable, CustomStringConvertible, Codable {
    public let littleEndianBytes: [UInt8]
    public init?(littleEndian bytes: some Collection<UInt8>) { guard bytes.count == 6 else { return nil }; littleEndianBytes = Array(bytes) }
    public init?(_ string: String) { return nil }
    public static let zero = BDAddress(littleEndian: [0,0,0,0,0,0])!
    public var description: String { "x" }
}
public enum AddressType: UInt8, Sendable, Codable { case `public` = 0, random = 1, publicIdentity = 2, randomIdentity = 3 }
public struct AdvertisingData: Hashable, Sendable {
    public static func lenientlyParsed(_ b: some Collection<UInt8>) -> AdvertisingData { AdvertisingData() }
}
