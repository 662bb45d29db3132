import HCIPackets
// A descriptor in a service tree.

extension GATTServiceTree {
    /// A characteristic descriptor: handle, type and (optionally) the value read.
    public struct Descriptor: Hashable, Sendable, CustomStringConvertible {
        public var handle: UInt16
        public var uuid: BluetoothUUID
        public var value: ReadValue?

        public init(handle: UInt16, uuid: BluetoothUUID, value: ReadValue? = nil) {
            self.handle = handle
            self.uuid = uuid
            self.value = value
        }

        /// "Descriptor 2902 Client Characteristic Configuration [0x0013] = 0100".
        public var description: String {
            var text = "Descriptor \(GATTServiceTree.label(uuid)) [\(GATTServiceTree.hex(handle))]"
            if let value { text += " = \(value)" }
            return text
        }
    }
}
