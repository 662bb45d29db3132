import HCIPackets
import HostCore
import GATT
import Roles
import Simulation
import Testing
import TestSupport

/// The link-layer procedures our host drives (Exchange MTU, LE Set Data Length, LE Set PHY, connection
/// parameter changes), each awaited as a link event with the values the controller or the peer settled on,
/// on the simulated world's virtual time.
@Suite struct LinkSetupOnSimulatedWorldTests {
    typealias Devices = RolesOnSimulatedWorldTests.Devices

    @Test("Exchange MTU offering 100 settles on 100 on both ends; the peripheral hears it as a link event")
    func mtuExchange() async throws {
        try await Devices.with { devices in
            let (link, peripheral) = try await devices.connect()
            let events = await peripheral.linkEvents()
            #expect(try await link.exchangeMTU(offering: 100) == 100)
            #expect(try await TestSupport.first(of: events, within: .seconds(1), clock: devices.world.air.clock, "the peripheral's MTU event") == .mtu(100))
            #expect(await peripheral.gatt.mtu == 100)
            _ = try await link.disconnect()
        }
    }

    @Test("The peripheral may start Exchange MTU too: the central's server answers and hears the MTU as a link event")
    func mtuExchangeFromThePeripheral() async throws {
        try await Devices.with { devices in
            let (link, peripheral) = try await devices.connect()
            let events = await link.linkEvents()
            #expect(try await peripheral.exchangeMTU(offering: 185) == 185)
            #expect(try await TestSupport.first(of: events, within: .seconds(1), clock: devices.world.air.clock, "the central's MTU event") == .mtu(185))
            #expect(await link.gatt.mtu == 185)
            _ = try await link.disconnect()
        }
    }

    @Test("LE Set PHY 2M: both ends report LE 2M; the peer's host hears the change too")
    func phyUpdate() async throws {
        try await Devices.with { devices in
            let (link, peripheral) = try await devices.connect()
            let events = await peripheral.linkEvents()
            let phy = try await link.setPHY(.le2M)
            #expect(phy == LinkPHY(transmitter: 2, receiver: 2))
            let heard = try await TestSupport.first(of: events, within: .seconds(1), clock: devices.world.air.clock, "the peripheral's PHY event")
            #expect(heard == .phy(LinkPHYUpdate(status: .success, phy: LinkPHY(transmitter: 2, receiver: 2))))
            #expect(await peripheral.phy == LinkPHY(transmitter: 2, receiver: 2))
            _ = try await link.disconnect()
        }
    }

    @Test("LE Set Data Length 251: both ends' lengths change; asked again, nothing changes and the call returns at its deadline")
    func dataLength() async throws {
        try await Devices.with { devices in
            let (link, peripheral) = try await devices.connect()
            let length = try await link.setDataLength(octets: 251)
            #expect(length.transmit.octets == 251)
            #expect(await peripheral.dataLength.receive.octets == 251)
            let clock = devices.world.air.clock
            let started = clock.now
            let again = try await link.setDataLength(octets: 251, timeout: .milliseconds(300))
            #expect(again == length)
            #expect(started.duration(to: clock.now) == .milliseconds(300), "no LE Data Length Change comes when nothing changed")
            _ = try await link.disconnect()
        }
    }

    @Test("A data length outside 27…251 is refused before anything is sent")
    func dataLengthOutOfRange() async throws {
        try await Devices.with { devices in
            let (link, _) = try await devices.connect()
            await #expect(throws: RoleError.self) { try await link.setDataLength(octets: 26) }
            await #expect(throws: RoleError.self) { try await link.setDataLength(octets: 252) }
            _ = try await link.disconnect()
        }
    }

    @Test("A peripheral's parameter request: the central hears the request accepted, then the update with the interval asked")
    func parameterRequestEvents() async throws {
        try await Devices.with { devices in
            let (link, peripheral) = try await devices.connect()
            let events = await link.linkEvents()
            let wanted = ConnectionParameters(intervalMin: 24, intervalMax: 24, latency: 0, supervisionTimeout: 200)
            try await peripheral.updateParameters(wanted, timeout: .seconds(2))
            let seen = try await TestSupport.collect(events, count: 2, within: .seconds(1), clock: devices.world.air.clock, "the central's link events")
            #expect(seen == [.parameterRequest(LinkParameterRequest(requested: wanted, accepted: true)),
                             .parameters(LinkParametersUpdate(status: .success, interval: 24, latency: 0, supervisionTimeout: 200))])
            _ = try await link.disconnect()
        }
    }

    @Test("Waiting for a link event that never comes fails at its deadline, naming what came instead")
    func linkEventDeadline() async throws {
        try await Devices.with { devices in
            let (link, _) = try await devices.connect()
            let clock = devices.world.air.clock
            let started = clock.now
            await #expect(throws: RoleError.self) {
                try await link.waitForLinkEvent("an MTU of 300", timeout: .milliseconds(250)) { event -> Int? in
                    if case .mtu(300) = event { return 300 }
                    return nil
                }
            }
            #expect(started.duration(to: clock.now) == .milliseconds(250))
            _ = try await link.disconnect()
        }
    }
}

extension LinkSetupOnSimulatedWorldTests {
    @Test("A peer's own Data Length Update as the link comes up is not the answer to ours: ours still reaches 251")
    func peerStartsItsOwnUpdate() async throws {
        try await Devices.with { devices in
            // The accessory's controller starts the procedure itself at the link's first event (its suggested default).
            try await devices.accessory.start()
            try await devices.accessory.suggestDefaultDataLength(octets: 251)
            let (link, peripheral) = try await devices.connect()
            let length = try await link.setDataLength(octets: 251)
            #expect(length.transmit.octets == 251, "answered with \(length)")
            #expect(await peripheral.dataLength.receive.octets == 251)
            _ = try await link.disconnect()
        }
    }
}
