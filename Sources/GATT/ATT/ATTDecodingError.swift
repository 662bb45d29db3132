// Why bytes did not decode as an ATT PDU.

/// Bytes that do not decode as the ATT PDU their opcode names (Core v5.4 Vol 3 Part F §3.4).
///
/// Names the PDU, the field and what was wrong, e.g.
/// "Read By Type Response (0x09): Attribute Data List: 7 octet(s) is not a multiple of Length 4".
/// A server answers a request that fails this way with Invalid PDU (0x04); a client
/// fails the outstanding request with it.
public struct ATTDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The PDU's opcode; nil when there was not even an opcode.
    public let opcode: ATTOpcode?
    /// The field, as the specification names it ("Attribute Handle", "Length").
    public let field: String
    /// What was wrong with it.
    public let reason: Reason

    /// What was wrong with a field.
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// The field needs `needed` octets at `offset` (from the opcode) and `remaining` are left.
        case truncated(needed: Int, offset: Int, remaining: Int)
        /// `count` octets follow the last field of a fixed-length PDU.
        case trailingBytes(count: Int)
        /// The field is present but its value is not allowed.
        case invalid(String)

        public var description: String {
            switch self {
            case .truncated(let needed, let offset, let remaining):
                "needs \(needed) octet(s) at offset \(offset), only \(remaining) left"
            case .trailingBytes(let count):
                "\(count) unexpected octet(s) after it"
            case .invalid(let what):
                what
            }
        }
    }

    public init(opcode: ATTOpcode?, field: String, reason: Reason) {
        self.opcode = opcode
        self.field = field
        self.reason = reason
    }

    public var description: String {
        let pdu = opcode.map(\.description) ?? "ATT PDU"
        return "\(pdu): \(field): \(reason)"
    }
}
