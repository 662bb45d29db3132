import HCIPackets
// A discovered (or laid-out) GATT database, printable.

/// Services → characteristics → descriptors with their handles, as GATT
/// discovery finds them (Core v5.4 Vol 3 Part G §4.4–§4.7) and as
/// `GATTDatabase.serviceTree` lays them out, so the two compare with `==`.
///
/// `description` prints the tree for `hil connect --gatt`:
/// ```
/// Service 180F Battery [0x0010…0x0013]
///   Characteristic 2A19 Battery Level [0x0012] read, notify = 5A
///     Descriptor 2902 Client Characteristic Configuration [0x0013]
/// ```
public struct GATTServiceTree: Hashable, Sendable, CustomStringConvertible {
    /// Every service in handle order: the primary services and the secondary
    /// services reached through includes.
    public var services: [Service]
    /// The Database Hash characteristic's value, when the server has one and it was read.
    public var databaseHash: [UInt8]?

    public init(services: [Service], databaseHash: [UInt8]? = nil) {
        self.services = services
        self.databaseHash = databaseHash
    }

    /// Every characteristic of every service, in handle order.
    public var characteristics: [Characteristic] { services.flatMap(\.characteristics) }

    /// The first characteristic `uuid` (in the first service `service`, when given).
    public func characteristic(_ uuid: BluetoothUUID, in service: BluetoothUUID? = nil) -> Characteristic? {
        for entry in services where service == nil || entry.uuid == service {
            if let found = entry.characteristics.first(where: { $0.uuid == uuid }) { return found }
        }
        return nil
    }

    /// The same tree without values read (for comparing structure).
    public var withoutValues: GATTServiceTree {
        var copy = self
        for s in copy.services.indices {
            for c in copy.services[s].characteristics.indices {
                copy.services[s].characteristics[c].value = nil
                for d in copy.services[s].characteristics[c].descriptors.indices {
                    copy.services[s].characteristics[c].descriptors[d].value = nil
                }
            }
        }
        return copy
    }

    public var description: String {
        var lines: [String] = []
        for service in services {
            lines.append(service.description)
            for include in service.includes { lines.append("  " + include.description) }
            for characteristic in service.characteristics {
                lines.append("  " + characteristic.description)
                for descriptor in characteristic.descriptors { lines.append("    " + descriptor.description) }
            }
        }
        if let hash = databaseHash { lines.append("Database Hash \(HexFormat.bytes(hash))") }
        return lines.joined(separator: "\n")
    }

    /// "2A19 Battery Level", or just the UUID when it has no known name.
    static func label(_ uuid: BluetoothUUID) -> String {
        uuid.name.map { "\(uuid) \($0)" } ?? uuid.description
    }

    /// "0x0012".
    static func hex(_ handle: UInt16) -> String { HexFormat.prefixed(handle, width: 4) }
}
