/// One endpoint of an interface (USB 2.0 §9.6.6).
package struct USBEndpointDescriptor: Hashable, Sendable {
    package enum TransferType: UInt8, Sendable {
        case control = 0, isochronous = 1, bulk = 2, interrupt = 3
    }

    /// bEndpointAddress: bit 7 set for IN.
    package var address: UInt8
    /// bmAttributes.
    package var attributes: UInt8
    package var maxPacketSize: UInt16
    package var interval: UInt8

    package init(address: UInt8, attributes: UInt8, maxPacketSize: UInt16, interval: UInt8 = 0) {
        self.address = address
        self.attributes = attributes
        self.maxPacketSize = maxPacketSize
        self.interval = interval
    }

    package var isIn: Bool { address & 0x80 != 0 }
    package var transferType: TransferType { TransferType(rawValue: attributes & 0x03) ?? .control }
    /// wMaxPacketSize bits 10:0 (bits 12:11 are high-bandwidth multipliers).
    package var packetSize: Int { Int(maxPacketSize & 0x07FF) }
}

/// One alternate setting of one interface.
package struct USBInterfaceDescriptor: Hashable, Sendable {
    package var number: UInt8
    package var alternate: UInt8
    package var interfaceClass: UInt8
    package var subclass: UInt8
    package var protocolCode: UInt8
    package var endpoints: [USBEndpointDescriptor]

    package init(number: UInt8, alternate: UInt8 = 0, interfaceClass: UInt8, subclass: UInt8, protocolCode: UInt8,
                endpoints: [USBEndpointDescriptor]) {
        self.number = number
        self.alternate = alternate
        self.interfaceClass = interfaceClass
        self.subclass = subclass
        self.protocolCode = protocolCode
        self.endpoints = endpoints
    }
}

/// A configuration descriptor with its interfaces, parsed from the bytes the device (or sysfs's
/// `descriptors` file) gives: a chain of descriptors, each `bLength, bDescriptorType, …`.
package struct USBConfigurationDescriptor: Hashable, Sendable {
    package var value: UInt8
    package var interfaces: [USBInterfaceDescriptor]

    package init(value: UInt8 = 1, interfaces: [USBInterfaceDescriptor]) {
        self.value = value
        self.interfaces = interfaces
    }

    /// Parses one configuration (type 2) and everything up to its wTotalLength. Malformed input (a zero
    /// or overlong bLength, a truncated descriptor) is an error naming the byte offset.
    package init(bytes: [UInt8]) throws(USBDescriptorError) {
        guard bytes.count >= 9, bytes[0] >= 9, bytes[1] == 0x02 else {
            throw USBDescriptorError("not a configuration descriptor: expected bLength ≥ 9 and type 0x02 at offset 0, got \(bytes.prefix(2).map(USBHex.byte).joined(separator: " "))")
        }
        let total = Int(bytes[2]) | Int(bytes[3]) << 8
        guard total <= bytes.count else {
            throw USBDescriptorError("configuration descriptor claims wTotalLength \(total), only \(bytes.count) bytes present")
        }
        value = bytes[5]
        interfaces = []
        var offset = Int(bytes[0])
        var current: USBInterfaceDescriptor?
        while offset < total {
            let length = Int(bytes[offset])
            guard offset + 1 < total else { throw USBDescriptorError("truncated descriptor header at offset \(offset)") }
            guard length >= 2, offset + length <= total else {
                throw USBDescriptorError("descriptor at offset \(offset) has bLength \(length), which does not fit the \(total)-byte configuration")
            }
            let type = bytes[offset + 1]
            switch type {
            case 0x04 where length >= 9: // INTERFACE
                if let current { interfaces.append(current) }
                current = USBInterfaceDescriptor(number: bytes[offset + 2], alternate: bytes[offset + 3],
                                                 interfaceClass: bytes[offset + 5], subclass: bytes[offset + 6],
                                                 protocolCode: bytes[offset + 7], endpoints: [])
            case 0x05 where length >= 7: // ENDPOINT
                guard current != nil else { throw USBDescriptorError("endpoint descriptor at offset \(offset) precedes any interface") }
                current?.endpoints.append(USBEndpointDescriptor(
                    address: bytes[offset + 2], attributes: bytes[offset + 3],
                    maxPacketSize: UInt16(bytes[offset + 4]) | UInt16(bytes[offset + 5]) << 8, interval: bytes[offset + 6]))
            case 0x04, 0x05:
                throw USBDescriptorError("descriptor of type 0x\(USBHex.byte(type)) at offset \(offset) is only \(length) bytes")
            default:
                break // class-specific, interface association, SuperSpeed companion: not needed here
            }
            offset += length
        }
        if let current { interfaces.append(current) }
    }

    /// Splits sysfs's `descriptors` file (the 18-byte device descriptor, then each configuration) and
    /// parses the first configuration.
    package static func fromSysfsDescriptors(_ bytes: [UInt8]) throws(USBDescriptorError) -> USBConfigurationDescriptor {
        guard bytes.count > 18, bytes[0] == 18, bytes[1] == 0x01 else {
            throw USBDescriptorError("sysfs descriptors do not start with an 18-byte device descriptor")
        }
        return try USBConfigurationDescriptor(bytes: Array(bytes[18...]))
    }
}

/// Descriptor bytes that do not parse, or a configuration without the interface or endpoints a caller needs.
package struct USBDescriptorError: Error, Hashable, Sendable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
