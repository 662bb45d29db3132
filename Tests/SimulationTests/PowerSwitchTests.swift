import HCI
import Simulation
import Testing

/// The simulated power switch takes a controller off the air and brings it back fresh.
@Suite struct PowerSwitchTests {
    @Test func switchingAPortOffClosesTheTransportAndTimesOutThePeer() async throws {
        try await ConnectedPair.with { pair in
            let powerSwitch = try #require(pair.bench.powerSwitch)
            #expect(powerSwitch.ports == [1, 2])
            #expect(powerSwitch.controllerName(port: 1) == "peripheral")
            let lost = try await HostScenarios.expectDisconnection(pair.central, handle: pair.centralHandle, "the central")
            await powerSwitch.setPort(1, on: false)
            #expect(powerSwitch.state(port: 1) == false)
            #expect(await pair.peripheral.state == .poweredOff)
            #expect(try await pair.central.wait(for: lost) == .connectionTimeout)
            #expect(pair.bench.controller(named: "peripheral")?.isPoweredOn == false)
            do throws(HCITransportError) {
                _ = try pair.bench.openTransport(named: "peripheral")
                Issue.record("opened a switched-off controller")
            } catch {
                #expect(error.kind == .notFound)
                #expect(error.message.contains("sim:peripheral"))
            }
        }
    }

    @Test func switchingAPortOnGivesAFreshController() async throws {
        try await SimulatedBenchFixture.with(hosts: ["peripheral"]) { bench, hosts in
            let powerSwitch = try #require(bench.powerSwitch)
            try await HostScenarios.advertise(hosts[0], name: "HIL-Before")
            #expect(await bench.air.statistics().advertisers == 1)
            await powerSwitch.setPort(1, on: false)
            #expect(await bench.air.statistics().controllers == 1)
            await powerSwitch.setPort(1, on: true)
            #expect(powerSwitch.state(port: 1) == true)
            let stats = await bench.air.statistics()
            #expect(stats.controllers == 2 && stats.advertisers == 0)
            let host = try HCIHost(transport: bench.openTransport(named: "peripheral"))
            let info = try await host.initialize()
            #expect(info.address == BDAddress(0x00_5A_1D_00_00_02))
            #expect(await host.state == .poweredOn)
            await host.close()
        }
    }

    @Test func unknownPortsAreNotPorts() async throws {
        let bench = try SimulatedBench(SimulatedBenchFixture.twoControllers)
        let powerSwitch = try #require(bench.powerSwitch)
        #expect(powerSwitch.state(port: 9) == nil)
        await powerSwitch.setPort(9, on: false)
        let allOn = bench.controllers.allSatisfy { $0.isPoweredOn }
        #expect(allOn)
        await bench.shutdown()
        let anyOn = bench.controllers.contains { $0.isPoweredOn }
        #expect(!anyOn)
    }
}
