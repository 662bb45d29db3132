import HCIPackets
import HCITransports
import HostCore
import Simulation
import Testing

/// The simulated power switch takes a controller off the air and brings it back fresh.
@Suite struct PowerSwitchTests {
    @Test func switchingAPortOffClosesTheTransportAndTimesOutThePeer() async throws {
        try await ConnectedPair.with { pair in
            let powerSwitch = try #require(pair.world.powerSwitch)
            #expect(powerSwitch.ports == [1, 2])
            #expect(powerSwitch.controllerName(port: 1) == "peripheral")
            let lost = try await HostScenarios.expectDisconnection(pair.central, handle: pair.centralHandle, "the central")
            await powerSwitch.setPort(1, on: false)
            #expect(powerSwitch.state(port: 1) == false)
            #expect(await pair.peripheral.state == .poweredOff)
            #expect(try await pair.central.wait(for: lost) == .connectionTimeout)
            #expect(pair.world.controller(named: "peripheral")?.isPoweredOn == false)
            do throws(HCITransportError) {
                _ = try pair.world.openTransport(named: "peripheral")
                Issue.record("opened a switched-off controller")
            } catch {
                #expect(error.kind == .notFound)
                #expect(error.message.contains("sim:peripheral"))
            }
        }
    }

    @Test func switchingAPortOnGivesAFreshController() async throws {
        try await SimulatedWorldFixture.with(hosts: ["peripheral"]) { world, hosts in
            let powerSwitch = try #require(world.powerSwitch)
            try await HostScenarios.advertise(hosts[0], name: "HIL-Before")
            #expect(await world.air.statistics().advertisers == 1)
            await powerSwitch.setPort(1, on: false)
            #expect(await world.air.statistics().controllers == 1)
            await powerSwitch.setPort(1, on: true)
            #expect(powerSwitch.state(port: 1) == true)
            let stats = await world.air.statistics()
            #expect(stats.controllers == 2 && stats.advertisers == 0)
            let host = try HCIHost(transport: world.openTransport(named: "peripheral"))
            let info = try await host.initialize()
            #expect(info.address == BDAddress(0x00_5A_1D_00_00_02))
            #expect(await host.state == .poweredOn)
            await host.close()
        }
    }

    @Test func unknownPortsAreNotPorts() async throws {
        let world = try await SimulatedWorldFixture.drive { world in
            let powerSwitch = try #require(world.powerSwitch)
            #expect(powerSwitch.state(port: 9) == nil)
            await powerSwitch.setPort(9, on: false)
            let allOn = world.controllers.allSatisfy { $0.isPoweredOn }
            #expect(allOn)
            return world
        }
        // The fixture has shut the world down.
        let anyOn = world.controllers.contains { $0.isPoweredOn }
        #expect(!anyOn)
    }
}
