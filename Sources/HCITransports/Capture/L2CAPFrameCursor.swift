/// Where a capture is in one L2CAP basic frame (Core v5.4 Vol 3 Part A §3.1) as it passes in ACL fragments —
/// the 4-octet header (Length, Channel ID), then the payload — so that an SMP PDU's secret fields
/// (`CaptureSecrets.smp`) are overwritten wherever the fragments split it, header included.
struct L2CAPFrameCursor {
    /// The header's octets seen so far (at most 4).
    private var header: [UInt8] = []
    /// The payload's octets seen so far.
    private var payloadSeen = 0
    /// The secret fields of the SMP PDU, once its code has passed.
    private var fields: [SecretField] = []

    /// The frame's Length field, once the header has passed.
    private var length: Int? {
        header.count == 4 ? Int(header[0]) | Int(header[1]) << 8 : nil
    }

    /// The frame's Channel ID, once the header has passed.
    private var channel: UInt16? {
        header.count == 4 ? UInt16(header[2]) | UInt16(header[3]) << 8 : nil
    }

    /// Whether the whole frame has passed: later octets on the stream start another.
    var isComplete: Bool {
        guard let length else { return false }
        return payloadSeen >= length
    }

    /// Takes the next fragment's data, `bytes[start...]`, overwriting the octets of secret fields with the
    /// marker. Octets beyond the frame's Length are left as they are.
    mutating func redact(_ bytes: inout [UInt8], from start: Int) {
        var index = start
        while index < bytes.count, header.count < 4 {
            header.append(bytes[index])
            index += 1
        }
        guard let length, let channel else { return }
        guard CaptureSecrets.isSMPChannel(channel) else {
            payloadSeen += bytes.count - index
            return
        }
        while index < bytes.count, payloadSeen < length {
            if payloadSeen == 0 {
                fields = CaptureSecrets.smp(code: bytes[index])
            } else if let field = fields.first(where: { $0.range.contains(payloadSeen) }) {
                bytes[index] = CaptureKeys.markerOctet(payloadSeen - field.offset)
            }
            payloadSeen += 1
            index += 1
        }
    }
}
