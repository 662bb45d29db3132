/// A device's Container ID (USB 3.2 §9.6.2.3), from its BOS descriptor: the two halves of a USB 3 hub
/// (its USB 2 hub and its SuperSpeed hub) report the same one.
package struct ContainerID: Hashable, Sendable, CustomStringConvertible {
    package let bytes: [UInt8]

    package init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Finds the Container ID capability (type 0x10, capability 0x04) in a whole BOS descriptor.
    /// Returns nil when there is none; throws when the BOS descriptor itself is malformed.
    package static func fromBOS(_ bos: [UInt8]) throws -> ContainerID? {
        func bad(_ why: String) -> PowerSwitchError {
            PowerSwitchError(.deviceFailure, "BOS descriptor \(bos.prefix(32).map(byteHex).joined(separator: " ")): \(why)")
        }
        guard bos.count >= 5, bos[0] == 5, bos[1] == 0x0F else { throw bad("does not start with a 5-byte BOS header (05 0f)") }
        let total = Int(bos[2]) | Int(bos[3]) << 8
        guard total <= bos.count else { throw bad("wTotalLength \(total) but \(bos.count) bytes received") }
        var offset = 5
        while offset + 3 <= total {
            let length = Int(bos[offset])
            guard length >= 3, offset + length <= total else { throw bad("capability at offset \(offset) has bLength \(length)") }
            if bos[offset + 1] == 0x10, bos[offset + 2] == 0x04 {
                guard length == 20 else { throw bad("Container ID capability of length \(length), expected 20") }
                return ContainerID(bytes: Array(bos[(offset + 4)..<(offset + 20)]))
            }
            offset += length
        }
        return nil
    }

    package var description: String {
        let hex = bytes.map(byteHex)
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
    }
}
