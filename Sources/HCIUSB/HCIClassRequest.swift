import HCIPackets

/// How an HCI command travels to a USB controller: a class request on endpoint 0 whose data stage is
/// the command (Core v5.4 Vol 4 Part B §2.2): bmRequestType 0x20 (host-to-device, class, device
/// recipient), bRequest 0, wValue 0, wIndex 0 (btusb and Bumble send 0; some stacks send the interface
/// number), wLength = the command's length.
package struct HCIClassRequest: Hashable, Sendable {
    package static let requestType: UInt8 = 0x20
    package static let request: UInt8 = 0x00

    package var index: UInt16
    package var command: [UInt8]

    /// `command`: the HCI command without its H4 indicator (opcode, length, parameters).
    package init(command: [UInt8], index: UInt16 = 0) {
        self.command = command
        self.index = index
    }

    package init(_ packet: HCICommandPacket, index: UInt16 = 0) {
        self.init(command: packet.bytes, index: index)
    }

    /// The eight setup bytes, little-endian (USB 2.0 §9.3).
    package var setup: [UInt8] {
        let length = UInt16(clamping: command.count)
        return [Self.requestType, Self.request, 0, 0, UInt8(index & 0xFF), UInt8(index >> 8),
                UInt8(length & 0xFF), UInt8(length >> 8)]
    }

    /// What libusb's control transfer buffer holds: setup, then data.
    package var transferBuffer: [UInt8] { setup + command }
}

/// Joins the bytes of one USB endpoint into HCI packets. An event or ACL packet may span several
/// transfers (a device that does not end a packet that fills whole max-size packets with a zero-length
/// packet leaves the transfer running into the next one), so the length comes from the HCI header, never
/// from transfer boundaries.
package struct USBPacketReassembler: Sendable {
    package enum Kind: Sendable {
        /// Interrupt IN: event code, parameter length (1 byte).
        case event
        /// Bulk IN: handle and flags, data length (2 bytes).
        case acl
    }

    package let kind: Kind
    package let maximumDataLength: Int
    private var buffer: [UInt8] = []

    package init(kind: Kind, maximumDataLength: Int = 65_535) {
        self.kind = kind
        self.maximumDataLength = maximumDataLength
    }

    /// Bytes held that do not yet make a whole packet.
    package var pendingByteCount: Int { buffer.count }

    /// Adds one transfer's bytes; returns the packets they complete.
    package mutating func feed(_ bytes: some Collection<UInt8>) throws(USBReassemblyError) -> [HCIPacket] {
        buffer.append(contentsOf: bytes)
        var packets: [HCIPacket] = []
        var start = 0
        while true {
            let available = buffer.count - start
            let header = kind == .event ? 2 : 4
            guard available >= header else { break }
            let length: Int
            switch kind {
            case .event: length = Int(buffer[start + 1])
            case .acl:
                length = Int(buffer[start + 2]) | Int(buffer[start + 3]) << 8
                if length > maximumDataLength {
                    buffer.removeAll()
                    throw USBReassemblyError("ACL packet claims \(length) bytes, above the limit of \(maximumDataLength)")
                }
            }
            guard available >= header + length else { break }
            let body = Array(buffer[start..<(start + header + length)])
            start += header + length
            switch kind {
            case .event:
                packets.append(.event(HCIEventPacket(code: body[0], parameters: Array(body[2...]))))
            case .acl:
                let first = UInt16(body[0]) | UInt16(body[1]) << 8
                packets.append(.aclData(ACLDataPacket(handle: first & 0x0FFF,
                                                      boundary: ACLDataPacket.Boundary(rawValue: UInt8((first >> 12) & 0x3)) ?? .continuing,
                                                      broadcast: UInt8(first >> 14), data: Array(body[4...]))))
            }
        }
        if start > 0 { buffer.removeFirst(start) }
        return packets
    }

    /// Forgets a partial packet (after the device was reset).
    package mutating func reset() { buffer.removeAll() }
}

package struct USBReassemblyError: Error, Hashable, Sendable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
