/// A typed HCI command (Core v5.4 Vol 4 Part E §7): its opcode, encoded parameters, and how the
/// controller answers it.
public protocol HCICommand: Sendable {
    /// What the command's Command Complete return parameters decode to (after Status).
    associatedtype Response: Sendable = Void

    static var opcode: HCIOpcode { get }
    /// Whether the controller answers with Command Complete or with Command Status.
    static var completion: HCICommandCompletion { get }
    /// The command parameters, encoded.
    var parameters: [UInt8] { get }
    /// Decodes the return parameters that follow Status in Command Complete.
    static func decodeResponse(_ reader: inout HCIReturnParameters) throws(HCIDecodingError) -> Response
}

/// How a controller acknowledges a command (Core v5.4 Vol 4 Part E §4.4).
public enum HCICommandCompletion: Sendable {
    /// HCI_Command_Complete carries the result.
    case complete
    /// HCI_Command_Status says the command started; a later event carries the result.
    case status
}

extension HCICommand {
    public static var completion: HCICommandCompletion { .complete }
    public var parameters: [UInt8] { [] }
    public var packet: HCICommandPacket { HCICommandPacket(opcode: Self.opcode, parameters: parameters) }
}

extension HCICommand where Response == Void {
    public static func decodeResponse(_ reader: inout HCIReturnParameters) throws(HCIDecodingError) {}
}

/// Command Complete return parameters after Status, read field by field.
public struct HCIReturnParameters {
    var reader: ByteReader

    package init(_ bytes: some Collection<UInt8>, opcode: HCIOpcode) {
        reader = ByteReader(bytes, context: "Command Complete", opcode: opcode)
    }

    public mutating func u8(_ field: String) throws(HCIDecodingError) -> UInt8 { try reader.u8(field) }
    public mutating func i8(_ field: String) throws(HCIDecodingError) -> Int8 { try reader.i8(field) }
    public mutating func u16(_ field: String) throws(HCIDecodingError) -> UInt16 { try reader.u16(field) }
    public mutating func u64(_ field: String) throws(HCIDecodingError) -> UInt64 { try reader.u64(field) }
    public mutating func bytes(_ count: Int, _ field: String) throws(HCIDecodingError) -> [UInt8] { try reader.bytes(count, field) }
    public mutating func address(_ field: String) throws(HCIDecodingError) -> BDAddress { try reader.address(field) }
    mutating func connectionHandle() throws(HCIDecodingError) -> UInt16 { try reader.connectionHandle() }
}
