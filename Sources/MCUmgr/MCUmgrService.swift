import HCIPackets
import GATT

/// The GATT service MCUmgr SMP runs over (Zephyr's SMP Bluetooth transport): one characteristic the client writes
/// requests to (Write Without Response) and the server notifies responses on. A message longer than ATT_MTU − 3
/// spans several writes or notifications; its header's length says where it ends.
package enum MCUmgrService {
    package static let service = BluetoothUUID(high: 0x8D53_DC1D_1DB7_4CD3, low: 0x868B_8A52_7460_AA84)
    package static let characteristic = BluetoothUUID(high: 0xDA2E_7828_FBCE_4E01, low: 0xAE9E_2611_7499_7C48)

    /// The service, with `written` called for every value a client writes (servers usually read the device's
    /// `attributeWrites()` instead, which says which connection wrote).
    package static func definition(written: @escaping GATTWriteHandler = { _ in }) -> GATTService {
        GATTService(uuid: service, characteristics: [
            GATTCharacteristic(uuid: characteristic, properties: [.writeWithoutResponse, .notify], value: .handlers(read: nil, write: written)),
        ])
    }

    /// `message` cut into pieces of at most `size` octets (ATT_MTU − 3), as it goes over the characteristic.
    package static func fragments(_ message: [UInt8], size: Int) -> [[UInt8]] {
        let size = max(1, size)
        return stride(from: 0, to: message.count, by: size).map { Array(message[$0..<min(message.count, $0 + size)]) }
    }
}

/// Joins the fragments of MCUmgr SMP messages one side of the characteristic receives: a message ends where its
/// header's length says, and a fragment may end one message and start the next.
package struct MCUmgrReassembler: Sendable {
    private var buffer: [UInt8] = []

    package init() {}

    /// Octets received that do not yet make a whole message.
    package var pending: Int { buffer.count }

    /// Adds a fragment; returns the whole messages (header and body) it completed, in order.
    package mutating func append(_ fragment: [UInt8]) -> [[UInt8]] {
        buffer += fragment
        var messages: [[UInt8]] = []
        while buffer.count >= MCUmgrHeader.size {
            let end = MCUmgrHeader.size + (Int(buffer[2]) << 8 | Int(buffer[3]))
            guard buffer.count >= end else { break }
            messages.append(Array(buffer[..<end]))
            buffer.removeFirst(end)
        }
        return messages
    }

    /// Forgets a partial message (the link that carried it ended).
    package mutating func reset() { buffer.removeAll() }
}
