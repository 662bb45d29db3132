import HCIPackets
// The service tree of a database, as a client would discover it.

extension GATTDatabase {
    /// Builds the tree discovery would produce: every service (primary and
    /// secondary) in handle order with its includes, characteristics (each
    /// ending before the next declaration or at the service's end) and descriptors.
    static func buildTree(_ table: [GATTAttribute], hash: [UInt8]) -> GATTServiceTree {
        var services: [GATTServiceTree.Service] = []
        var index = 0
        while index < table.count {
            let attribute = table[index]
            guard case .service(let end, let isPrimary) = attribute.role, case .fixed(let raw) = attribute.source,
                  let uuid = BluetoothUUID(littleEndian: raw) else {
                index += 1
                continue
            }
            var service = GATTServiceTree.Service(handle: attribute.handle, endHandle: end, uuid: uuid,
                                                  isPrimary: isPrimary)
            let members = table[(index + 1)..<min(table.count, Int(end))]
            var characteristic: GATTServiceTree.Characteristic?
            for member in members {
                switch member.role {
                case .include:
                    guard case .fixed(let value) = member.source, value.count >= 4 else { continue }
                    let start = UInt16(value[0]) | UInt16(value[1]) << 8
                    let groupEnd = UInt16(value[2]) | UInt16(value[3]) << 8
                    let includedUUID = value.count == 6
                        ? BluetoothUUID(littleEndian: value[4...])
                        : table.indices.contains(Int(start) - 1) ? Self.serviceUUID(table[Int(start) - 1]) : nil
                    service.includes.append(GATTServiceTree.Include(
                        handle: member.handle, serviceHandle: start, endHandle: groupEnd,
                        uuid: includedUUID ?? BluetoothUUID.base))
                case .characteristicDeclaration:
                    if var finished = characteristic {
                        finished.endHandle = member.handle - 1
                        service.characteristics.append(finished)
                    }
                    guard case .fixed(let value) = member.source, value.count >= 5,
                          let uuid = BluetoothUUID(littleEndian: value[3...]) else { continue }
                    characteristic = GATTServiceTree.Characteristic(
                        handle: member.handle, valueHandle: UInt16(value[1]) | UInt16(value[2]) << 8,
                        endHandle: end, uuid: uuid, properties: GATTCharacteristicProperties(rawValue: value[0]))
                case .clientConfiguration, .descriptor:
                    characteristic?.descriptors.append(GATTServiceTree.Descriptor(handle: member.handle, uuid: member.type))
                case .characteristicValue, .service:
                    continue
                }
            }
            if var finished = characteristic {
                finished.endHandle = end
                service.characteristics.append(finished)
            }
            services.append(service)
            index = Int(end)
        }
        let hasHash = table.contains { $0.type == .databaseHash }
        return GATTServiceTree(services: services, databaseHash: hasHash ? hash : nil)
    }

    private static func serviceUUID(_ attribute: GATTAttribute) -> BluetoothUUID? {
        guard case .fixed(let raw) = attribute.source else { return nil }
        return BluetoothUUID(littleEndian: raw)
    }
}
