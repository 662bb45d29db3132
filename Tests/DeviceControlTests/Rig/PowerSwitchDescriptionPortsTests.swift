import Testing
@testable import DeviceControl

/// An accessory's `power.port` chooses the one port its switch turns: the description restricted to it.
@Suite struct PowerSwitchDescriptionPortsTests {
    static let hub = USBLocation("1-1.4")

    static func hubSwitch(ports: [Int], devices: [String]) throws -> PowerSwitchDescription {
        let hub = try #require(Self.hub)
        let expectations = try devices.map { try #require(DeviceExpectation($0)) }
        return PowerSwitchDescription(name: "bench-hub", backend: .usbHub(hub: hub, ports: ports, method: .auto, force: false, repeatOff: 1),
                                      verify: .init(devices: expectations))
    }

    @Test func aHubPortIsTheOnlyPortSwitched() throws {
        let restricted = try #require(try Self.hubSwitch(ports: [2, 3], devices: []).restricted(toPort: 3))
        #expect(restricted.ports == [3])
        #expect(restricted.name == "bench-hub")
    }

    @Test func aPortTheSwitchDoesNotHaveIsRefused() throws {
        #expect(try Self.hubSwitch(ports: [2, 3], devices: []).restricted(toPort: 4) == nil)
        let ykush = PowerSwitchDescription(name: "yk", backend: .ykush(serial: nil, ports: [1, 2]))
        #expect(ykush.restricted(toPort: 3) == nil)
        #expect(ykush.restricted(toPort: 2)?.ports == [2])
        let relay = PowerSwitchDescription(name: "relay", backend: .relay(vendor: "dcttech", serial: nil, ports: [1]))
        #expect(relay.restricted(toPort: 2) == nil)
    }

    @Test func devicesNamedBehindAnotherPortAreNotWatched() throws {
        // 1-1.4.2 is behind port 2 of hub 1-1.4, 1-1.4.3.1 behind port 3; an ID alone cannot be placed.
        let description = try Self.hubSwitch(ports: [2, 3], devices: ["1-1.4.2=10c4:ea60", "1-1.4.3.1", "1-1.42", "2fe3:000b"])
        let port2 = try #require(description.restricted(toPort: 2))
        #expect(port2.verify.devices.map(\.description) == ["1-1.4.2 (10c4:ea60)", "2fe3:000b"])
        let port3 = try #require(description.restricted(toPort: 3))
        #expect(port3.verify.devices.map(\.description) == ["1-1.4.3.1", "2fe3:000b"])
    }

    @Test func aOneOutletSwitchIsUnchanged() {
        let command = PowerSwitchDescription(name: "pdu", backend: .command(on: ["pdu", "on"], off: ["pdu", "off"], status: nil,
                                                                            statePattern: nil, deadline: .seconds(1)))
        #expect(command.ports == [1])
        #expect(command.restricted(toPort: 1) == command)
        #expect(command.restricted(toPort: 2) == nil)
    }
}
