import HCIPackets
/// Joins ACL fragments into whole L2CAP PDUs, one stream per connection handle, using the basic
/// L2CAP header's length (Core v5.4 Vol 3 Part A §3.1).
package struct ACLReassembler {
    private var partial: [UInt16: [UInt8]] = [:]
    /// The largest PDU accepted; a longer claim is a malformed stream.
    package let maximumPDULength: Int

    /// Unfinished PDUs a new start fragment abandoned (handle, the octets received), oldest first, until
    /// `takeAbandoned()`: a peer whose L2CAP length claimed more than it sent.
    private(set) var abandoned: [(handle: UInt16, bytes: [UInt8])] = []

    package init(maximumPDULength: Int = 65_535 + 4) { self.maximumPDULength = maximumPDULength }

    /// Returns and forgets the abandoned PDUs.
    mutating func takeAbandoned() -> [(handle: UInt16, bytes: [UInt8])] {
        defer { abandoned = [] }
        return abandoned
    }

    /// Adds a fragment; returns a complete PDU when this fragment finishes one.
    package mutating func add(_ packet: ACLDataPacket) throws(HCIDecodingError) -> [UInt8]? {
        var buffer: [UInt8]
        switch packet.boundary {
        case .firstFlushable, .firstNonFlushable, .complete:
            // A new start abandons an unfinished PDU on this handle: its L2CAP length claimed more than came.
            if let unfinished = partial[packet.handle] { abandoned.append((packet.handle, unfinished)) }
            buffer = packet.data
        case .continuing:
            guard let existing = partial[packet.handle] else {
                throw HCIDecodingError("ACL handle 0x\(hex4(packet.handle)): continuing fragment with no start fragment")
            }
            buffer = existing + packet.data
        }
        guard buffer.count >= 2 else {
            partial[packet.handle] = buffer
            return nil
        }
        let total = (Int(buffer[0]) | Int(buffer[1]) << 8) + 4
        if total > maximumPDULength {
            partial[packet.handle] = nil
            throw HCIDecodingError("ACL handle 0x\(hex4(packet.handle)): L2CAP length \(total - 4) exceeds \(maximumPDULength - 4)")
        }
        if buffer.count < total {
            partial[packet.handle] = buffer
            return nil
        }
        partial[packet.handle] = nil
        if buffer.count > total {
            throw HCIDecodingError("ACL handle 0x\(hex4(packet.handle)): \(buffer.count - total) byte(s) beyond the L2CAP length \(total - 4)")
        }
        return buffer
    }

    /// Forgets a connection's partial PDU.
    mutating func drop(handle: UInt16) { partial[handle] = nil }
    mutating func dropAll() { partial.removeAll() }
}
