/// LE connection parameters as HCI carries them (Core v5.4 Vol 4 Part E §7.8.12).
public struct ConnectionParameters: Sendable, Hashable, Codable {
    /// Connection_Interval_Min, in 1.25 ms units (0x0006…0x0C80).
    public var intervalMin: UInt16
    /// Connection_Interval_Max, in 1.25 ms units.
    public var intervalMax: UInt16
    /// Max_Latency, in connection events (Peripheral latency).
    public var latency: UInt16
    /// Supervision_Timeout, in 10 ms units (0x000A…0x0C80).
    public var supervisionTimeout: UInt16
    /// Min_CE_Length / Max_CE_Length, in 0.625 ms units.
    public var minCELength: UInt16
    public var maxCELength: UInt16

    public init(intervalMin: UInt16 = 0x0018, intervalMax: UInt16 = 0x0028, latency: UInt16 = 0,
                supervisionTimeout: UInt16 = 0x002A, minCELength: UInt16 = 0, maxCELength: UInt16 = 0) {
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.latency = latency
        self.supervisionTimeout = supervisionTimeout
        self.minCELength = minCELength
        self.maxCELength = maxCELength
    }

    /// The shortest Supervision_Timeout (10 ms units, at least 0x000A) that §7.8.12 allows with an interval
    /// (1.25 ms units) and a latency: the timeout must exceed (1 + latency) × interval × 2.
    public static func shortestSupervisionTimeout(interval: UInt16, latency: UInt16 = 0) -> UInt16 {
        UInt16(clamping: max(10, (1 + Int(latency)) * Int(interval) / 4 + 1))
    }

    /// The supervision timeout as a duration.
    public var supervisionTimeoutDuration: Duration { .milliseconds(Int(supervisionTimeout) * 10) }

    func encode(into w: inout ByteWriter) {
        w.u16(intervalMin); w.u16(intervalMax); w.u16(latency); w.u16(supervisionTimeout)
        w.u16(minCELength); w.u16(maxCELength)
    }
}

/// HCI_LE_Create_Connection (§7.8.12): answered by Command Status, completed by LE (Enhanced)
/// Connection Complete.
public typealias LECreateConnection = LEConnectionCreation<LECreateConnectionLayout>

/// HCI_LE_Extended_Create_Connection [v1] (§7.8.66), on LE 1M only.
public typealias LEExtendedCreateConnection = LEConnectionCreation<LEExtendedCreateConnectionLayout>

/// HCI_LE_Create_Connection_Cancel (§7.8.13).
public struct LECreateConnectionCancel: HCICommand {
    public static let opcode = HCIOpcode.leCreateConnectionCancel
    public init() {}
}

/// A connection to initiate, as LE Create Connection (§7.8.12) and LE Extended Create Connection [v1]
/// (§7.8.66) both carry it: whom to connect to, from which address type, how to scan for the peer, and the
/// connection parameters; `Layout` is the command. Answered by Command Status, completed by LE (Enhanced)
/// Connection Complete.
public struct LEConnectionCreation<Layout: LEConnectionCreationLayout>: HCICommand {
    public static var opcode: HCIOpcode { Layout.opcode }
    public static var completion: HCICommandCompletion { .status }
    public var scanInterval: UInt16
    public var scanWindow: UInt16
    public var useFilterAcceptList: Bool
    public var peerAddressType: AddressType
    public var peerAddress: BDAddress
    public var ownAddressType: AddressType
    public var connection: ConnectionParameters

    public init(peerAddress: BDAddress, peerAddressType: AddressType, ownAddressType: AddressType = .public,
                connection: ConnectionParameters = ConnectionParameters(),
                scanInterval: UInt16 = 0x0010, scanWindow: UInt16 = 0x0010, useFilterAcceptList: Bool = false) {
        self.scanInterval = scanInterval
        self.scanWindow = scanWindow
        self.useFilterAcceptList = useFilterAcceptList
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.ownAddressType = ownAddressType
        self.connection = connection
    }

    public var parameters: [UInt8] { Layout.parameters(of: self) }
}

/// One of the commands that initiate a connection: its opcode and how it lays out the parameters.
public protocol LEConnectionCreationLayout: Sendable {
    static var opcode: HCIOpcode { get }
    static func parameters(of command: LEConnectionCreation<Self>) -> [UInt8]
}

/// LE Create Connection's parameters (§7.8.12).
public enum LECreateConnectionLayout: LEConnectionCreationLayout {
    public static let opcode = HCIOpcode.leCreateConnection

    public static func parameters(of command: LECreateConnection) -> [UInt8] {
        var w = ByteWriter(capacity: 25)
        w.u16(command.scanInterval); w.u16(command.scanWindow); w.u8(command.useFilterAcceptList ? 1 : 0)
        w.u8(command.peerAddressType.rawValue); w.address(command.peerAddress); w.u8(command.ownAddressType.rawValue)
        command.connection.encode(into: &w)
        return w.bytes
    }
}

/// LE Extended Create Connection [v1]'s parameters (§7.8.66), with one PHY: LE 1M.
public enum LEExtendedCreateConnectionLayout: LEConnectionCreationLayout {
    public static let opcode = HCIOpcode.leExtendedCreateConnection

    public static func parameters(of command: LEExtendedCreateConnection) -> [UInt8] {
        var w = ByteWriter(capacity: 26)
        w.u8(command.useFilterAcceptList ? 1 : 0); w.u8(command.ownAddressType.rawValue); w.u8(command.peerAddressType.rawValue)
        w.address(command.peerAddress); w.u8(0x01) // Initiating_PHYs: LE 1M
        w.u16(command.scanInterval); w.u16(command.scanWindow)
        command.connection.encode(into: &w)
        return w.bytes
    }
}

/// HCI_Disconnect (§7.1.6): answered by Command Status, completed by Disconnection Complete.
public struct Disconnect: HCICommand {
    public static let opcode = HCIOpcode.disconnect
    public static let completion = HCICommandCompletion.status
    public var handle: UInt16
    public var reason: HCIStatus
    public init(handle: UInt16, reason: HCIStatus = .remoteUserTerminatedConnection) {
        self.handle = handle
        self.reason = reason
    }
    public var parameters: [UInt8] { var w = ByteWriter(); w.u16(handle); w.u8(reason.rawValue); return w.bytes }
}

/// HCI_LE_Connection_Update (§7.8.18): completed by LE Connection Update Complete.
public struct LEConnectionUpdate: HCICommand {
    public static let opcode = HCIOpcode.leConnectionUpdate
    public static let completion = HCICommandCompletion.status
    public var handle: UInt16
    public var connection: ConnectionParameters
    public init(handle: UInt16, connection: ConnectionParameters) {
        self.handle = handle
        self.connection = connection
    }
    public var parameters: [UInt8] {
        var w = ByteWriter(capacity: 14)
        w.u16(handle); connection.encode(into: &w)
        return w.bytes
    }
}

/// HCI_LE_Read_Remote_Features (§7.8.21): completed by LE Read Remote Features Complete.
public struct LEReadRemoteFeatures: HCICommand {
    public static let opcode = HCIOpcode.leReadRemoteFeatures
    public static let completion = HCICommandCompletion.status
    public var handle: UInt16
    public init(handle: UInt16) { self.handle = handle }
    public var parameters: [UInt8] { var w = ByteWriter(); w.u16(handle); return w.bytes }
}

/// HCI_Read_Remote_Version_Information (§7.1.23): completed by Read Remote Version Information Complete.
public struct ReadRemoteVersionInformation: HCICommand {
    public static let opcode = HCIOpcode.readRemoteVersionInformation
    public static let completion = HCICommandCompletion.status
    public var handle: UInt16
    public init(handle: UInt16) { self.handle = handle }
    public var parameters: [UInt8] { var w = ByteWriter(); w.u16(handle); return w.bytes }
}
