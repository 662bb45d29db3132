// The Database Hash of Core v5.4 Vol 3 Part G §7.3.

import BluetoothCrypto
import HCIPackets

extension GATTDatabase {
    /// Computes the Database Hash (Vol 3 Part G §7.3.1): AES-CMAC with a key of
    /// 16 zero octets over, in handle order,
    /// - Attribute Handle ‖ Attribute Type ‖ Attribute Value of every Primary Service,
    ///   Secondary Service, Include and Characteristic declaration and every
    ///   Characteristic Extended Properties descriptor, and
    /// - Attribute Handle ‖ Attribute Type of every Characteristic User Description,
    ///   Client Characteristic Configuration, Server Characteristic Configuration,
    ///   Characteristic Presentation Format and Characteristic Aggregate Format descriptor;
    /// handles and 16-bit types little-endian, values as the attribute holds them.
    /// Other attributes (characteristic values, other descriptors) do not take part.
    static func hashInput(_ table: [GATTAttribute]) -> [UInt8] {
        var writer = ByteWriter(capacity: table.count * 8)
        for attribute in table {
            guard let type = attribute.type.uint16Value, attribute.type.isBasedOnBaseUUID else { continue }
            switch type {
            case 0x2800, 0x2801, 0x2802, 0x2803, 0x2900:
                guard case .fixed(let value) = attribute.source else { continue }
                writer.u16(attribute.handle)
                writer.u16(type)
                writer.append(value)
            case 0x2901, 0x2902, 0x2903, 0x2904, 0x2905:
                writer.u16(attribute.handle)
                writer.u16(type)
            default:
                continue
            }
        }
        return writer.bytes
    }

    static func computeHash(_ table: [GATTAttribute]) -> [UInt8] {
        AESCMAC(key: [UInt8](repeating: 0, count: 16))?.authenticate(hashInput(table)) ?? []
    }
}
