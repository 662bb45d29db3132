import HCIPackets
// An include declaration in a service tree.

extension GATTServiceTree {
    /// An include declaration (Core v5.4 Vol 3 Part G §3.2): its handle and the
    /// included service's range and UUID.
    public struct Include: Hashable, Sendable, CustomStringConvertible {
        public var handle: UInt16
        public var serviceHandle: UInt16
        public var endHandle: UInt16
        public var uuid: BluetoothUUID

        /// "Includes 180F Battery [0x0010…0x0013] at 0x0005".
        public var description: String {
            "Includes \(GATTServiceTree.label(uuid)) [\(GATTServiceTree.hex(serviceHandle))…"
                + "\(GATTServiceTree.hex(endHandle))] at \(GATTServiceTree.hex(handle))"
        }
    }
}
