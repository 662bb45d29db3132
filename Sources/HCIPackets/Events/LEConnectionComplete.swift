/// The parameters of LE Connection Complete and LE Enhanced Connection Complete [v1]/[v2]
/// (Core v5.4 Vol 4 Part E §7.7.65.1, §7.7.65.10), in one shape.
public struct LEConnectionComplete: Sendable, Hashable {
    /// Role: Central (0x00) or Peripheral (0x01).
    public enum Role: UInt8, Sendable, Codable, CustomStringConvertible {
        case central = 0x00
        case peripheral = 0x01
        public var description: String { self == .central ? "central" : "peripheral" }
    }

    public var status: HCIStatus
    public var handle: UInt16
    public var role: Role
    public var peerAddressType: AddressType
    public var peerAddress: BDAddress
    /// Local and peer resolvable private addresses (enhanced events only; zero when unused).
    public var localResolvablePrivateAddress: BDAddress?
    public var peerResolvablePrivateAddress: BDAddress?
    /// Connection_Interval in 1.25 ms units.
    public var interval: UInt16
    public var latency: UInt16
    /// Supervision_Timeout in 10 ms units.
    public var supervisionTimeout: UInt16
    public var centralClockAccuracy: UInt8
    /// Advertising_Handle and Sync_Handle ([v2] only).
    public var advertisingHandle: UInt8?
    public var syncHandle: UInt16?
    /// Which subevent carried it: 0x01, 0x0A or 0x29.
    public var subevent: UInt8

    public init(status: HCIStatus, handle: UInt16, role: Role, peerAddressType: AddressType, peerAddress: BDAddress,
                interval: UInt16, latency: UInt16, supervisionTimeout: UInt16, centralClockAccuracy: UInt8 = 0,
                subevent: UInt8 = LEMetaEvent.Subevent.connectionComplete) {
        self.status = status
        self.handle = handle
        self.role = role
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.interval = interval
        self.latency = latency
        self.supervisionTimeout = supervisionTimeout
        self.centralClockAccuracy = centralClockAccuracy
        self.subevent = subevent
    }

    init(subevent: UInt8, reader r: inout ByteReader) throws(HCIDecodingError) {
        let status = try r.status()
        let handle = try r.connectionHandle()
        let roleByte = try r.u8("Role")
        let addressTypeByte = try r.u8("Peer_Address_Type")
        let peer = try r.address("Peer_Address")
        var localRPA: BDAddress?
        var peerRPA: BDAddress?
        if subevent != LEMetaEvent.Subevent.connectionComplete {
            localRPA = try r.address("Local_Resolvable_Private_Address")
            peerRPA = try r.address("Peer_Resolvable_Private_Address")
        }
        let interval = try r.u16("Connection_Interval")
        let latency = try r.u16("Peripheral_Latency")
        let timeout = try r.u16("Supervision_Timeout")
        let accuracy = try r.u8("Central_Clock_Accuracy")
        // A failed connection may carry garbage in the other fields; only a successful one must be well formed.
        let role = Role(rawValue: roleByte)
        let addressType = AddressType(rawValue: addressTypeByte)
        if status == .success {
            guard role != nil else { throw HCIDecodingError("LE Connection Complete: Role 0x\(hex2(roleByte)) is not central or peripheral") }
            guard addressType != nil else { throw HCIDecodingError("LE Connection Complete: Peer_Address_Type 0x\(hex2(addressTypeByte)) is reserved") }
        }
        self.init(status: status, handle: handle, role: role ?? .central, peerAddressType: addressType ?? .public,
                  peerAddress: peer, interval: interval, latency: latency, supervisionTimeout: timeout,
                  centralClockAccuracy: accuracy, subevent: subevent)
        localResolvablePrivateAddress = localRPA
        peerResolvablePrivateAddress = peerRPA
        if subevent == LEMetaEvent.Subevent.enhancedConnectionCompleteV2 {
            advertisingHandle = try r.u8("Advertising_Handle")
            syncHandle = try r.u16("Sync_Handle")
        }
    }
}
