import HCIPackets
import HILTesting
import Testing

/// What a thermometer team checks on every nightly run, beyond the standard transitions: its profile is
/// complete, its battery level is sane, and it indicates a temperature after a power cut.
@Suite(.bench, .serialized) struct ThermometerSuite {
    static let thermometer = "thermometer"

    @Test func profileIsComplete() async throws {
        try await HILCase.run(accessory: Self.thermometer) { bench in
            let link = try await bench.connect(to: try await bench.findAccessory(timeout: bench.rig.budgets.advertisingAfterPowerOn))
            let tree = try await bench.discover(link)
            let temperature = tree.characteristics.first { $0.uuid == BluetoothUUID(UInt16(0x2A1C)) }
            #expect(temperature?.properties.contains(.indicate) == true, "Temperature Measurement must indicate")
            let values = try await link.gatt.discoverAll(readValues: true)
            let battery = values.characteristics.first { $0.uuid == BluetoothUUID(UInt16(0x2A19)) }
            guard case .bytes(let level)? = battery?.value, let percent = level.first else {
                Issue.record("no readable Battery Level")
                return
            }
            bench.measure("battery level", value: Double(percent), unit: "%")
            #expect((0...100).contains(percent))
            try await link.disconnect()
        }
    }

    @Test(.requiresPowerSwitch) func comesBackAfterAPowerCut() async throws {
        try await HILCase.run(accessory: Self.thermometer) { bench in
            try await bench.power(false)
            try await bench.power(true)
            let link = try await bench.connect(to: try await bench.findAccessory(timeout: bench.rig.budgets.reconnect))
            let tree = try await bench.discover(link)
            #expect(tree.services.contains { $0.uuid == BluetoothUUID(UInt16(0x1809)) })
            try await link.disconnect()
        }
    }
}
