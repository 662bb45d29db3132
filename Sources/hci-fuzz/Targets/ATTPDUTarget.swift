// att-pdu: the ATT PDU decoder, every opcode.
import GATT

/// The input is one ATT PDU, opcode first (Core v5.4 Vol 3 Part F §3.4). What decodes must re-encode to
/// bytes that decode to the same PDU, and its description and classification must not trap; what does
/// not decode must name its opcode (when there is one) in its error.
enum ATTPDUTarget {
    static let target = FuzzTarget(name: "att-pdu", summary: "ATT PDU decoder (every opcode), re-encoding", run: run)

    static func run(_ input: [UInt8]) -> Int {
        let pdu: ATTPDU
        do {
            pdu = try ATTPDU(decoding: input)
        } catch {
            Harness.check(error.opcode == input.first.map { ATTOpcode($0) }, "ATT error names opcode \(String(describing: error.opcode))")
            return error.description.count
        }
        Harness.check(pdu.opcode == ATTOpcode(input[0]), "ATT PDU \(pdu) does not keep its opcode")
        let encoded = pdu.encoded()
        Harness.check((try? ATTPDU(decoding: encoded)) == pdu, "ATT PDU \(pdu) does not decode from its own encoding")
        var touched = pdu.description.count &+ encoded.count &+ Int(pdu.handle ?? 0)
        if pdu.isRequest { touched &+= Int(pdu.expectedResponseOpcode?.rawValue ?? 0) }
        if pdu.isResponse || pdu.isCommand { touched &+= 1 }
        return touched
    }
}
