// The SMP commands as the Core spec lists them, for the PDU tests.
import Testing

/// One row of Core v5.4 Vol 3 Part H §3.3 Table 3.4 (SMP command codes), with the parameter length the
/// command's figure in §3.5–3.6 gives and one well-formed PDU, transcribed from the spec rather than
/// taken from SMPCode.
struct SMPCommandRow: Sendable, CustomTestStringConvertible {
    let code: UInt8
    let name: String
    /// Octets after the code (Figures 3.3–3.17).
    let parameterLength: Int
    /// A well-formed PDU: the code, then parameters.
    let sample: [UInt8]

    var testDescription: String { name }
}

enum SMPCommandTable {
    static let rows: [SMPCommandRow] = [
        // IO Capability, OOB data flag, AuthReq, Maximum Encryption Key Size, Initiator / Responder Key Distribution.
        SMPCommandRow(code: 0x01, name: "Pairing Request", parameterLength: 6, sample: [0x01, 0x04, 0x00, 0x2D, 0x10, 0x03, 0x03]),
        SMPCommandRow(code: 0x02, name: "Pairing Response", parameterLength: 6, sample: [0x02, 0x02, 0x01, 0x05, 0x07, 0x01, 0x06]),
        SMPCommandRow(code: 0x03, name: "Pairing Confirm", parameterLength: 16, sample: [0x03] + Array(0x10...0x1F)),
        SMPCommandRow(code: 0x04, name: "Pairing Random", parameterLength: 16, sample: [0x04] + Array(0x20...0x2F)),
        SMPCommandRow(code: 0x05, name: "Pairing Failed", parameterLength: 1, sample: [0x05, 0x04]),
        SMPCommandRow(code: 0x06, name: "Encryption Information", parameterLength: 16, sample: [0x06] + Array(0x30...0x3F)),
        // EDIV (2 octets), Rand (8 octets).
        SMPCommandRow(code: 0x07, name: "Central Identification", parameterLength: 10,
                      sample: [0x07, 0x34, 0x12, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x88]),
        SMPCommandRow(code: 0x08, name: "Identity Information", parameterLength: 16, sample: [0x08] + Array(0x40...0x4F)),
        // AddrType (0x00 public, 0x01 random static), BD_ADDR least significant first.
        SMPCommandRow(code: 0x09, name: "Identity Address Information", parameterLength: 7,
                      sample: [0x09, 0x01, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0]),
        SMPCommandRow(code: 0x0A, name: "Signing Information", parameterLength: 16, sample: [0x0A] + Array(0x50...0x5F)),
        SMPCommandRow(code: 0x0B, name: "Security Request", parameterLength: 1, sample: [0x0B, 0x0D]),
        // Public Key X, then Y, 32 octets each.
        SMPCommandRow(code: 0x0C, name: "Pairing Public Key", parameterLength: 64, sample: [0x0C] + Array(0x60...0x9F)),
        SMPCommandRow(code: 0x0D, name: "Pairing DHKey Check", parameterLength: 16, sample: [0x0D] + Array(0xA0...0xAF)),
        // Notification Type 0x04: passkey entry completed.
        SMPCommandRow(code: 0x0E, name: "Pairing Keypress Notification", parameterLength: 1, sample: [0x0E, 0x04]),
    ]
}
