import LibUSB

extension USBConfigurationDescriptor {
    /// The interface and endpoints to speak HCI on (see `HCIEndpoints.select`).
    package func hciEndpoints(forced: Bool) throws(USBDescriptorError) -> HCIEndpoints {
        try HCIEndpoints.select(from: interfaces, forced: forced)
    }
}

/// The HCI interface of a device: events from interrupt IN, ACL in on bulk IN and out on bulk OUT
/// (Core v5.4 Vol 4 Part B §2.1); commands go over endpoint 0 as class requests.
package struct HCIEndpoints: Hashable, Sendable, CustomStringConvertible {
    package var interface: UInt8
    package var alternate: UInt8
    package var interruptIn: USBEndpointDescriptor
    package var bulkIn: USBEndpointDescriptor
    package var bulkOut: USBEndpointDescriptor

    /// The first interface (alternate 0 preferred) of class E0/01/01 that has all three endpoints; in
    /// forced mode, the first interface with all three whatever its class.
    package static func select(from interfaces: [USBInterfaceDescriptor], forced: Bool) throws(USBDescriptorError) -> HCIEndpoints {
        let ordered = interfaces.sorted { ($0.number, $0.alternate) < ($1.number, $1.alternate) }
        let eligible = forced ? ordered : ordered.filter(\.isBluetooth)
        guard !eligible.isEmpty else {
            let classes = interfaces.map { "interface \($0.number) class \(USBHex.byte($0.interfaceClass))/\(USBHex.byte($0.subclass))/\(USBHex.byte($0.protocolCode))" }
            throw USBDescriptorError("no interface of class E0/01/01 (Bluetooth) (\(classes.isEmpty ? "no interfaces" : classes.joined(separator: ", "))); "
                                     + "for a dongle with a vendor class, add '!' to the selector (e.g. usb:0a12:0001!)")
        }
        var seen: [String] = []
        for interface in eligible {
            let interruptIn = interface.endpoints.first { $0.isIn && $0.transferType == .interrupt }
            let bulkIn = interface.endpoints.first { $0.isIn && $0.transferType == .bulk }
            let bulkOut = interface.endpoints.first { !$0.isIn && $0.transferType == .bulk }
            if let interruptIn, let bulkIn, let bulkOut {
                return HCIEndpoints(interface: interface.number, alternate: interface.alternate,
                                    interruptIn: interruptIn, bulkIn: bulkIn, bulkOut: bulkOut)
            }
            seen.append("interface \(interface.number).\(interface.alternate) has " + (interface.endpoints.isEmpty ? "no endpoints"
                : interface.endpoints.map { "\(USBHex.byte($0.address)) \($0.transferType)" }.joined(separator: ", ")))
        }
        throw USBDescriptorError("no interface has interrupt IN, bulk IN and bulk OUT endpoints (\(seen.joined(separator: "; ")))")
    }

    package var description: String {
        "interface \(interface) (alt \(alternate)): events 0x\(USBHex.byte(interruptIn.address)) interrupt IN (\(interruptIn.packetSize) B), "
            + "ACL 0x\(USBHex.byte(bulkIn.address)) bulk IN / 0x\(USBHex.byte(bulkOut.address)) bulk OUT (\(bulkOut.packetSize) B)"
    }
}
