import HCIPackets
import GATT

/// The GATT service of Bumble's `bench` app: the server notifies on RX and takes writes on TX. `hil bench`
/// finds it on a peer, the simulated accessories with `bench` serve it, and `hil bench --peripheral` serves it.
package enum SpeedService {
    package static let service = BluetoothUUID(high: 0x50DB_505C_8AC4_4738, low: 0x8448_3B1D_9CC0_9CC5)
    /// Written by the client (Write Without Response): the client's packets to the server.
    package static let tx = BluetoothUUID(high: 0xE789_C754_41A1_45F4, low: 0xA948_A0A1_A90D_BA53)
    /// Notified by the server: the server's packets to the client.
    package static let rx = BluetoothUUID(high: 0x016A_2CC7_E14B_4819, low: 0x935F_1F56_EAE4_098D)

    /// The service, with `written` called for every value a client writes to TX.
    package static func definition(written: @escaping GATTWriteHandler) -> GATTService {
        GATTService(uuid: service, characteristics: [
            GATTCharacteristic(uuid: tx, properties: [.write, .writeWithoutResponse], value: .handlers(read: nil, write: written)),
            GATTCharacteristic(uuid: rx, properties: [.notify]),
        ])
    }
}
