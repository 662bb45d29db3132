import HCIPackets
/// What a controller says about itself after a Reset: the answer `hil info` prints.
public struct ControllerInfo: Sendable, Hashable, Codable {
    public var address: BDAddress
    public var hciVersion: BluetoothVersion
    public var hciSubversion: UInt16
    public var lmpVersion: BluetoothVersion
    public var lmpSubversion: UInt16
    public var manufacturer: CompanyIdentifier
    /// LMP features page 0 (Read Local Supported Features).
    public var lmpFeatures: UInt64
    public var leFeatures: LEFeatures
    /// The 64-octet Supported_Commands bit mask.
    public var supportedCommands: [UInt8]
    /// ACL buffers (Read Buffer Size) and LE ACL buffers (LE Read Buffer Size; zero length = shared).
    public var aclBufferLength: UInt16
    public var aclBufferCount: UInt16
    public var leACLBufferLength: UInt16
    public var leACLBufferCount: UInt8
    public var isoBufferLength: UInt16?
    public var isoBufferCount: UInt8?

    /// Whether Supported_Commands has bit `bit` of octet `octet` set (Core v5.4 Vol 4 Part E §6.27).
    public func supports(octet: Int, bit: Int) -> Bool {
        octet < supportedCommands.count && supportedCommands[octet] & (1 << bit) != 0
    }

    /// LE Set Extended Advertising Parameters is octet 36 bit 5 .. LE Extended Create Connection octet 37 bit 7.
    public var supportsExtendedAdvertising: Bool {
        leFeatures.contains(.leExtendedAdvertising) && supports(octet: 36, bit: 5)
    }

    public var supportsExtendedScanning: Bool {
        leFeatures.contains(.leExtendedAdvertising) && supports(octet: 37, bit: 5) && supports(octet: 37, bit: 6)
    }

    /// LE Read Buffer Size [v2] is octet 41 bit 5.
    public var supportsLEReadBufferSizeV2: Bool { supports(octet: 41, bit: 5) }

    /// LMP feature bit 38: LE Supported (Controller).
    public var supportsLE: Bool { lmpFeatures & (1 << 38) != 0 }

    /// The LE ACL buffers the host uses: the LE pool, or the shared ACL pool when LE reports none.
    public var effectiveLEBuffers: (length: Int, count: Int) {
        if leACLBufferLength > 0 && leACLBufferCount > 0 { return (Int(leACLBufferLength), Int(leACLBufferCount)) }
        return (Int(aclBufferLength), Int(aclBufferCount))
    }
}
