import HostCore
import HILResults

/// How a case in which the accessory broke the protocol is recorded: a product failure whose message
/// names the first violation (with its bytes) and whose properties carry it for the results.
enum ProtocolViolationVerdict {
    /// The most octets `violation.bytes` holds (the whole PDU up to this).
    static let recordedOctets = 512

    /// The first violation, how many more came, and what the test then threw (unless that names it already).
    static func message(_ first: ProtocolViolation, count: Int, thrown: (any Error)?) -> String {
        var message = first.description
        if count > 1 { message += " (and \(count - 1) more)" }
        if let thrown {
            let said = "\(thrown)"
            if !said.contains(first.description) { message += "; then: \(said)" }
        }
        return message
    }

    /// `violation`, `violation.bytes` (spaced hex) and `violation.count` for the record.
    static func properties(_ first: ProtocolViolation, count: Int) -> [String: String] {
        [TestRecord.PropertyKey.violation: "\(first.layer.rawValue) \(first.what)",
         TestRecord.PropertyKey.violationBytes: ProtocolViolation(first.layer, first.what, bytes: Array(first.bytes.prefix(recordedOctets))).hexBytes,
         TestRecord.PropertyKey.violationCount: "\(count)"]
    }
}
