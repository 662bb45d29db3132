import HCIPackets
// A characteristic in a service tree.

extension GATTServiceTree {
    /// A characteristic: declaration and value handles, the last handle of its
    /// descriptors, UUID, properties, descriptors and (optionally) the value read.
    public struct Characteristic: Hashable, Sendable, CustomStringConvertible {
        /// The characteristic declaration's handle.
        public var handle: UInt16
        public var valueHandle: UInt16
        /// The last handle of this characteristic (before the next declaration or the service's end).
        public var endHandle: UInt16
        public var uuid: BluetoothUUID
        public var properties: GATTCharacteristicProperties
        public var descriptors: [Descriptor]
        /// The value, when it was read.
        public var value: ReadValue?

        public init(handle: UInt16, valueHandle: UInt16, endHandle: UInt16, uuid: BluetoothUUID,
                    properties: GATTCharacteristicProperties, descriptors: [Descriptor] = [], value: ReadValue? = nil) {
            self.handle = handle
            self.valueHandle = valueHandle
            self.endHandle = endHandle
            self.uuid = uuid
            self.properties = properties
            self.descriptors = descriptors
            self.value = value
        }

        /// The Client Characteristic Configuration descriptor's handle, if there is one.
        public var clientConfigurationHandle: UInt16? {
            descriptors.first { $0.uuid == .clientCharacteristicConfiguration }?.handle
        }

        /// "Characteristic 2A19 Battery Level [0x0012] read, notify = 5A".
        public var description: String {
            var text = "Characteristic \(GATTServiceTree.label(uuid)) [\(GATTServiceTree.hex(valueHandle))] \(properties)"
            if let value { text += " = \(value)" }
            return text
        }
    }

    /// A value read during discovery, or the ATT error that answered the read.
    public enum ReadValue: Hashable, Sendable, CustomStringConvertible {
        case bytes([UInt8])
        case error(ATTErrorCode)

        /// Hex octets, with the text when they are printable UTF-8
        /// (`53656E736F72 "Sensor"`); "(empty)"; or "error 0x05 Insufficient Authentication".
        public var description: String {
            switch self {
            case .bytes(let bytes):
                guard !bytes.isEmpty else { return "(empty)" }
                var text = HexFormat.bytes(bytes)
                if let string = String(validating: bytes, as: UTF8.self),
                   string.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) {
                    text += " \"\(string)\""
                }
                return text
            case .error(let code):
                return "error \(code)"
            }
        }
    }
}
