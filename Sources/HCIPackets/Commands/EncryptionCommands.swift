// The LE security commands of the controller (Core v5.4 Vol 4 Part E §7.8.22–§7.8.26): AES-128 and
// random numbers for the host's security functions, and starting encryption on a link.
//
// Keys and blocks are 16 octets in HCI order, least significant octet first, exactly as they go on the
// wire (the byte reversal of Vol 3 Part H's most-significant-first notation is the caller's). A key or
// block of another length is sent as given, and the controller refuses the command with Invalid HCI
// Command Parameters (0x12).

/// HCI_LE_Encrypt (§7.8.22): AES-128 of one block with a key, in the controller. Command Complete
/// returns Encrypted_Data, 16 octets, least significant octet first.
public struct LEEncrypt: HCICommand {
    public static let opcode = HCIOpcode.leEncrypt
    /// Key, 16 octets, least significant octet first.
    public var key: [UInt8]
    /// Plaintext_Data, 16 octets, least significant octet first.
    public var plaintext: [UInt8]
    public init(key: [UInt8], plaintext: [UInt8]) {
        self.key = key
        self.plaintext = plaintext
    }
    public var parameters: [UInt8] { key + plaintext }
    public static func decodeResponse(_ r: inout HCIReturnParameters) throws(HCIDecodingError) -> [UInt8] {
        try r.bytes(16, "Encrypted_Data")
    }
}

/// HCI_LE_Rand (§7.8.23): 8 random octets from the controller, returned as a little-endian UInt64.
public struct LERand: HCICommand {
    public static let opcode = HCIOpcode.leRand
    public init() {}
    public static func decodeResponse(_ r: inout HCIReturnParameters) throws(HCIDecodingError) -> UInt64 {
        try r.u64("Random_Number")
    }
}

/// HCI_LE_Enable_Encryption (§7.8.24), sent by the central: answered by Command Status, completed by
/// Encryption Change (or Encryption Key Refresh Complete on a link already encrypted).
public struct LEEnableEncryption: HCICommand {
    public static let opcode = HCIOpcode.leEnableEncryption
    public static let completion = HCICommandCompletion.status
    public var handle: UInt16
    /// Random_Number (Rand) and Encrypted_Diversifier (EDIV) that identify the key to the peripheral;
    /// zero for a key from LE Secure Connections.
    public var random: UInt64
    public var ediv: UInt16
    /// Long_Term_Key, 16 octets, least significant octet first.
    public var longTermKey: [UInt8]
    public init(handle: UInt16, random: UInt64, ediv: UInt16, longTermKey: [UInt8]) {
        self.handle = handle
        self.random = random
        self.ediv = ediv
        self.longTermKey = longTermKey
    }
    public var parameters: [UInt8] {
        var w = ByteWriter(capacity: 28)
        w.u16(handle); w.u64(random); w.u16(ediv); w.append(longTermKey)
        return w.bytes
    }
}

/// HCI_LE_Long_Term_Key_Request_Reply (§7.8.25): the peripheral's host answers LE Long Term Key
/// Request with the key. Command Complete returns the Connection_Handle.
public struct LELongTermKeyRequestReply: HCICommand {
    public static let opcode = HCIOpcode.leLongTermKeyRequestReply
    public var handle: UInt16
    /// Long_Term_Key, 16 octets, least significant octet first.
    public var longTermKey: [UInt8]
    public init(handle: UInt16, longTermKey: [UInt8]) {
        self.handle = handle
        self.longTermKey = longTermKey
    }
    public var parameters: [UInt8] {
        var w = ByteWriter(capacity: 18)
        w.u16(handle); w.append(longTermKey)
        return w.bytes
    }
    public static func decodeResponse(_ r: inout HCIReturnParameters) throws(HCIDecodingError) -> UInt16 {
        try r.connectionHandle()
    }
}

/// HCI_LE_Long_Term_Key_Request_Negative_Reply (§7.8.26): the peripheral's host has no key for the
/// request; the central's host gets Encryption Change with PIN or Key Missing (0x06). Command Complete
/// returns the Connection_Handle.
public struct LELongTermKeyRequestNegativeReply: HCICommand {
    public static let opcode = HCIOpcode.leLongTermKeyRequestNegativeReply
    public var handle: UInt16
    public init(handle: UInt16) { self.handle = handle }
    public var parameters: [UInt8] { var w = ByteWriter(); w.u16(handle); return w.bytes }
    public static func decodeResponse(_ r: inout HCIReturnParameters) throws(HCIDecodingError) -> UInt16 {
        try r.connectionHandle()
    }
}
