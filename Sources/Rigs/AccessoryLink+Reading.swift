import HCIPackets
import Roles
import StrictJSON

extension AccessoryLink {
    private typealias Table = RigFormatTable.Link

    /// Reads `link`: every key optional (`updateMilliseconds` 2000), a misspelt one an error.
    init(reading value: InputValue) throws(InputError) {
        self = try value.object(Table.shape) { fields throws(InputError) -> Self in
            let phy = try fields.value(Table.phy).map { (item: InputValue) throws(InputError) -> PHYPreference in
                try item.choice("a PHY", unknown: "PHY")
            }
            return Self(mtu: try fields.optionalInteger(Table.mtu), dataLength: try fields.optionalInteger(Table.dataLength), phy: phy,
                        update: .milliseconds(try fields.number(Table.updateMilliseconds)),
                        requestedInterval: try fields.optionalNumber(Table.requestedIntervalMilliseconds).map { .microseconds($0 * 1_000) },
                        centralInterval: try fields.optionalNumber(Table.centralIntervalMilliseconds).map { .microseconds($0 * 1_000) },
                        notify: try fields.value(Table.notify).map(Stream.init(reading:)),
                        write: try fields.value(Table.write).map(Stream.init(reading:)))
        }
    }
}

extension AccessoryLink.Stream {
    private typealias Table = RigFormatTable.Stream

    /// Reads a `stream`: `floorBitsPerSecond` required; `characteristic`, `seconds` (3) and
    /// `latencyP95Milliseconds` optional.
    init(reading value: InputValue) throws(InputError) {
        self = try value.object(Table.shape) { fields throws(InputError) -> Self in
            var characteristic: BluetoothUUID?
            if let item = fields.value(Table.characteristic) {
                guard let uuid = BluetoothUUID(try item.string("a characteristic UUID")) else { throw item.fail("a characteristic UUID") }
                characteristic = uuid
            }
            return Self(characteristic: characteristic, duration: .microseconds(try fields.number(Table.seconds) * 1_000_000),
                        floorBitsPerSecond: try fields.number(Table.floorBitsPerSecond),
                        latencyP95: try fields.optionalNumber(Table.latencyP95Milliseconds).map { .microseconds($0 * 1_000) })
        }
    }
}
