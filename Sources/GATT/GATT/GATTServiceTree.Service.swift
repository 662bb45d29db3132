import HCIPackets
// A service in a service tree.

extension GATTServiceTree {
    /// A service: its declaration handle, the end of its group, UUID, includes and characteristics.
    public struct Service: Hashable, Sendable, CustomStringConvertible {
        public var handle: UInt16
        public var endHandle: UInt16
        public var uuid: BluetoothUUID
        public var isPrimary: Bool
        public var includes: [Include]
        public var characteristics: [Characteristic]

        public init(handle: UInt16, endHandle: UInt16, uuid: BluetoothUUID, isPrimary: Bool = true,
                    includes: [Include] = [], characteristics: [Characteristic] = []) {
            self.handle = handle
            self.endHandle = endHandle
            self.uuid = uuid
            self.isPrimary = isPrimary
            self.includes = includes
            self.characteristics = characteristics
        }

        /// "Service 180F Battery [0x0010…0x0013]" ("Secondary service …" for secondary ones).
        public var description: String {
            "\(isPrimary ? "Service" : "Secondary service") \(GATTServiceTree.label(uuid)) "
                + "[\(GATTServiceTree.hex(handle))…\(GATTServiceTree.hex(endHandle))]"
        }
    }
}
